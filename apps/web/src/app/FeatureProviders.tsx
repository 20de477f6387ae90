import type { ReactNode } from 'react';
import { features } from './features.ts';

/** Wraps its children in every registered feature's provider, in the order of the feature list. */
export function FeatureProviders({ children }: { children: ReactNode }) {
  return features.reduceRight<ReactNode>(
    (inner, feature) =>
      feature.provider ? <feature.provider key={feature.name}>{inner}</feature.provider> : inner,
    children,
  );
}
