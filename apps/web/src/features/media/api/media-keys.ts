export type ActionsTab = 'liked' | 'reposted' | 'saved';

/** Query keys of the media feature; every list of posts lives under `media` (the post shadow scans it). */
export const mediaKeys = {
  all: ['media'] as const,
  feed: () => [...mediaKeys.all, 'feed'] as const,
  post: (id: number) => [...mediaKeys.all, 'post', id] as const,
  user: (username: string) => [...mediaKeys.all, 'user', username] as const,
  actions: (tab: ActionsTab) => [...mediaKeys.all, 'actions', tab] as const,
  comments: (postId: number) => ['media-comments', postId] as const,
  blacklist: () => ['media-blacklist'] as const,
};
