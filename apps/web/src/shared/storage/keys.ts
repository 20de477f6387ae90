/** Every localStorage key the app uses (product spec §3 "Local storage keys"). */
export const StorageKeys = {
  /** 'sleep' or 'none'. */
  mediaMode: 'mediaMode',
  mediaCurrentPostId: 'media_currentPostId',
  modalState: 'modalState',
  livestreamPreferredCamera: 'livestream_preferredCamera',
  userId: 'user_id',
  userName: 'user_name',
  username: 'username',
  messengerHideUnreadBadges: 'messenger_hideUnreadBadges',
  messengerCompactProfileOpen: 'messenger_compactProfileOpen',
  messengerStickersOpen: 'messenger_stickersOpen',
  /** Messages written but not yet confirmed by the server (the offline outbox). */
  messengerOutbox: 'messenger_outbox',
  dataVersion: 'dataVersion',
  authUser: 'auth:user',
  authAccessToken: 'auth:accessToken',
  /** The last 10 error records. */
  reactErrors: 'reactErrors',
  lastError: 'lastError',
} as const;

export type StorageKey = (typeof StorageKeys)[keyof typeof StorageKeys];
