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
  /** The desktop notifications panel's width in px (300–600, default 400). */
  notificationsPanelWidth: 'notifications_panelWidth',
  dataVersion: 'dataVersion',
  /** Settings kept locally for the first paint (the server holds the truth): light | dark | system. */
  settingsTheme: 'settings_theme',
  /** small | medium | large. */
  settingsTextSize: 'settings_textSize',
  authUser: 'auth:user',
  authAccessToken: 'auth:accessToken',
  /** Username → the device token its last sign-in here got (kept after sign-out: skips login challenges). */
  authDevices: 'auth:devices',
  /** The last 10 error records. */
  reactErrors: 'reactErrors',
  lastError: 'lastError',
} as const;

export type StorageKey = (typeof StorageKeys)[keyof typeof StorageKeys];
