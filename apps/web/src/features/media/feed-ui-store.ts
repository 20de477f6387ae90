import type { Post } from '@kadr/contract';
import { create } from 'zustand';

export type FeedPanel = 'comments' | 'preferences' | 'modes' | 'myActions' | 'search' | 'alt' | null;

interface FeedUi {
  panel: FeedPanel;
  /** Comments panel target. */
  commentsPostId: number | null;
  /** The post whose alt text and tags its author edits. */
  altPost: Post | null;
  /** Interface (captions, actions) hidden by the modes panel or the context menu. */
  interfaceHidden: boolean;
  /** Rotation in degrees per post id (multiples of 90). */
  rotation: Readonly<Record<number, number>>;
  muted: boolean;
  /** Filtered posts the user chose to see anyway ('Посмотреть'). */
  revealed: ReadonlySet<number>;
  /** The post on screen, for the shell's rotate and delete entries. */
  activePost: Post | null;
  /** Position of the main feed, restored by back-to-feed. */
  feedIndex: number | null;
  openPanel: (panel: FeedPanel) => void;
  openComments: (postId: number) => void;
  openAlt: (post: Post) => void;
  closePanel: () => void;
  toggleInterface: () => void;
  setInterfaceHidden: (hidden: boolean) => void;
  rotate: (postId: number) => void;
  setMuted: (muted: boolean) => void;
  reveal: (postId: number) => void;
  setActivePost: (post: Post | null) => void;
  setFeedIndex: (index: number | null) => void;
}

export const useFeedUi = create<FeedUi>((set) => ({
  panel: null,
  commentsPostId: null,
  altPost: null,
  interfaceHidden: false,
  rotation: {},
  muted: false,
  revealed: new Set(),
  activePost: null,
  feedIndex: null,
  openPanel: (panel) => set({ panel }),
  openComments: (postId) => set({ panel: 'comments', commentsPostId: postId }),
  openAlt: (post) => set({ panel: 'alt', altPost: post }),
  closePanel: () => set({ panel: null }),
  toggleInterface: () => set((s) => ({ interfaceHidden: !s.interfaceHidden })),
  setInterfaceHidden: (interfaceHidden) => set({ interfaceHidden }),
  rotate: (postId) =>
    set((s) => ({ rotation: { ...s.rotation, [postId]: ((s.rotation[postId] ?? 0) + 90) % 360 } })),
  setMuted: (muted) => set({ muted }),
  reveal: (postId) => set((s) => ({ revealed: new Set(s.revealed).add(postId) })),
  setActivePost: (activePost) => set({ activePost }),
  setFeedIndex: (feedIndex) => set({ feedIndex }),
}));
