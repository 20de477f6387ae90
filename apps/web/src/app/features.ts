import { storiesFeature } from '../features/stories/feature.ts';
import type { Feature } from './feature.ts';

/**
 * The one list of registered web features. Adding a capability: its folders, one line here, one in
 * apps/server/src/modules/index.ts.
 */
export const features: readonly Feature[] = [storiesFeature];
