/**
 * Features the shell may offer an entry for. An entry whose feature has not landed is not rendered,
 * so the shell never shows a dead button; the issue that ships a feature switches its flag on.
 */
export const featureFlags = {
  mediaModes: true,
  mediaSearch: true,
  feedSettings: true,
  createContent: true,
  notifications: false,
  myActions: true,
  rotateVideo: true,
  deletePost: true,
  messengerSearch: true,
  createGroup: true,
  createChannel: true,
  reducedBadges: true,
} as const;

export type FeatureFlag = keyof typeof featureFlags;
export type FeatureFlags = Readonly<Record<FeatureFlag, boolean>>;
