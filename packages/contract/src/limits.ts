/** Business constants and limits (product spec §9 and the foundation issue). */
export const Limits = {
  username: { min: 3, max: 32, pattern: '^[a-z0-9_]+$' },
  displayName: { min: 1, max: 64 },
  password: { min: 8, max: 256 },
  bio: { max: 300 },
  userSearch: { max: 20, queryMax: 64 },
  postCaption: 500,
  storyCaption: 200,
  streamTitle: 100,
  comment: 500,
  /** A post's alt text (the author's edit of the tagger's description). */
  altText: 300,
  liveChatMessage: 500,
  guestsPerStream: 5,
  activeStreams: 20,
  notificationsPage: 20,
  /** People per page of a follower or following list. */
  followListPage: 30,
  /** Desktop notifications panel, px (spec §2.3, §9). */
  notificationPanelWidth: { min: 300, max: 600, default: 400 },
  myActionsPage: 9,
  mediaListPage: 50,
  feedPage: 15,
  /** Feed: auto-load while fewer than this many filtered posts are held… */
  feedMinFiltered: 15,
  /** …and fewer than this many in total (spec §9). */
  feedMaxAutoLoad: 100,
  feedPreloadThreshold: 5,
  storiesFeed: 20,
  messageEditWindowMs: 60 * 60 * 1000,
  typingMs: 3000,
  onlineWindowMs: 30_000,
  /** Messenger (spec §9 chat message batches, preview; sizes are ours). */
  messageContent: 4096,
  messagesInitial: 30,
  messagesOlder: 20,
  messagesMediaScan: 100,
  messagesPageMax: 100,
  /** The server sends this many characters of last_message; the list shows `chatPreview`. */
  messagePreviewChars: 200,
  chatPreview: 50,
  messageFilesMax: 10,
  forwardMessagesMax: 50,
  forwardTargetsMax: 20,
} as const;

export const DATA_VERSION = '1.1.0';
