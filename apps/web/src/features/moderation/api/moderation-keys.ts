/** The moderation queries' keys (kept apart so the realtime handlers load without the queries). */
export const moderationKeys = {
  all: ['moderation'] as const,
  me: () => [...moderationKeys.all, 'me'] as const,
  queue: (status: 'open' | 'closed') => [...moderationKeys.all, 'queue', status] as const,
  audit: () => [...moderationKeys.all, 'audit'] as const,
  moderators: () => [...moderationKeys.all, 'moderators'] as const,
  notices: () => [...moderationKeys.all, 'notices'] as const,
};
