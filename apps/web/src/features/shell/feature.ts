import { defineFeature } from '../../app/feature.ts';

/**
 * The app frame (`/home`, `/media`, `/messenger`): navigation, context buttons and the page menu. It
 * offers no entries of its own beyond the menu button, profile, settings and logout (nav-config.ts);
 * every other entry comes from the registered features' `shellEntries`.
 */
export const shellFeature = defineFeature({ name: 'shell' });
