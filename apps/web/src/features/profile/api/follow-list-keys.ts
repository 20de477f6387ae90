/** Which list of a profile: the people who follow it, or the people it follows. */
export type FollowSide = 'followers' | 'following';

/**
 * The follow lists' cache keys, apart from their queries: the follow-request answers (loaded with the
 * notifications bell, on every page) refresh the lists without pulling the lists' code into the first scripts.
 */
export const followListKeys = {
  all: ['follow-list'] as const,
  list: (username: string, side: FollowSide) => [...followListKeys.all, username, side] as const,
};
