/** What the app already knows about a user before their profile loads (a post's author, a chat peer). */
export interface ProfileSeed {
  username: string;
  name: string;
  avatar_url: string | null;
  avatar_thumbnail_url?: string | null;
}

const seeds = new Map<string, ProfileSeed>();

/** Remembers `user` so the profile header shows at once when it is opened (#18 item 9). */
export function rememberProfileSeed(user: ProfileSeed): void {
  seeds.set(user.username, {
    username: user.username,
    name: user.name,
    avatar_url: user.avatar_url,
    avatar_thumbnail_url: user.avatar_thumbnail_url ?? null,
  });
}

export function profileSeed(username: string): ProfileSeed | undefined {
  return seeds.get(username);
}
