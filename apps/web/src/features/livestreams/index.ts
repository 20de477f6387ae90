export { LiveStripEntries } from './components/LiveStripEntries.tsx';
export { livestreamsFeature } from './feature.ts';
