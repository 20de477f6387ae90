import type { Flow } from '../flow.ts';
import { auth } from './auth.ts';
import { feed } from './feed.ts';
import { messenger } from './messenger.ts';
import { notifications } from './notifications.ts';
import { postPhoto } from './post-photo.ts';
import { settings } from './settings.ts';
import { stories } from './stories.ts';

/** Every flow, in the order each engine runs them. */
export const flows: Flow[] = [auth, settings, notifications, messenger, stories, feed, postPhoto];
