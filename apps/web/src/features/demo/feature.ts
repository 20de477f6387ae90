import { defineFeature } from '../../app/feature.ts';

export { DemoOffer } from './components/DemoOffer.tsx';

/**
 * Demo content on a first run: the offer and its progress, shown by the empty home and the empty
 * feed through `DemoOffer`; the seeding itself is the server's job.
 */
export const demoFeature = defineFeature({ name: 'demo' });
