import { type ProfileSeed, rememberProfileSeed } from './profile-seed.ts';

/**
 * About to open `user`'s profile (a tap on a post's author, a chat peer): remember what is known for the
 * header, and start fetching the profile page's chunk while the finger is still down.
 */
export function seedProfile(user: ProfileSeed): void {
  rememberProfileSeed(user);
  void import('../../../routes/ProfileRoute.tsx').catch(() => {});
}
