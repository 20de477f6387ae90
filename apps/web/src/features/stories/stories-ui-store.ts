import type { Story, StoryGroup } from '@kadr/contract';
import { create } from 'zustand';
import type { StoryUploadInput } from './api/upload-story.ts';

export interface ViewerState {
  /** The groups as they were when the viewer opened, so the order does not move under the person. */
  groups: StoryGroup[];
  groupIndex: number;
  storyIndex: number;
}

export interface PendingStory {
  key: string;
  /** An object URL of what is being sent, for the upload tile. */
  previewUrl: string | null;
  progress: number;
  status: 'uploading' | 'processing' | 'failed';
  storyId?: number | undefined;
  /** What was sent, so a failed upload can be sent again from the strip. */
  input?: StoryUploadInput;
}

interface StoriesUi {
  viewer: ViewerState | null;
  /** The `?story=` link whose story is gone or hidden (its sheet is shown), or null. */
  linkMissing: number | null;
  setLinkMissing(storyId: number | null): void;
  editorOpen: boolean;
  pending: PendingStory[];
  openViewer(groups: StoryGroup[], groupIndex: number, storyIndex?: number): void;
  closeViewer(): void;
  moveTo(groupIndex: number, storyIndex: number): void;
  patchStory(storyId: number, patch: Partial<Story>): void;
  /** Takes a story out of the open viewer (reported: hidden from the reporter); shows what followed it. */
  dropStory(storyId: number): void;
  openEditor(): void;
  closeEditor(): void;
  setPending(key: string, patch: Partial<PendingStory> | null): void;
}

export const useStoriesUi = create<StoriesUi>((set) => ({
  viewer: null,
  linkMissing: null,
  setLinkMissing: (linkMissing) => set({ linkMissing }),
  editorOpen: false,
  pending: [],
  openViewer: (groups, groupIndex, storyIndex = 0) => set({ viewer: { groups, groupIndex, storyIndex } }),
  closeViewer: () => set({ viewer: null }),
  moveTo: (groupIndex, storyIndex) =>
    set((s) => (s.viewer ? { viewer: { ...s.viewer, groupIndex, storyIndex } } : s)),
  patchStory: (storyId, patch) =>
    set((s) =>
      s.viewer
        ? {
            viewer: {
              ...s.viewer,
              groups: s.viewer.groups.map((g) => ({
                ...g,
                stories: g.stories.map((st) => (st.id === storyId ? { ...st, ...patch } : st)),
              })),
            },
          }
        : s,
    ),
  dropStory: (storyId) =>
    set((s) => {
      if (!s.viewer) return s;
      const { groups, groupIndex, storyIndex } = s.viewer;
      const before = groups.slice(0, groupIndex).reduce((n, g) => n + g.stories.length, 0);
      const target = groups
        .flatMap((g) => g.stories.map((st) => st.id))
        .slice(before + storyIndex)
        .find((id) => id !== storyId);
      if (target === undefined) return { viewer: null };
      const kept = groups
        .map((g) => ({ ...g, stories: g.stories.filter((st) => st.id !== storyId) }))
        .filter((g) => g.stories.length > 0);
      const g = kept.findIndex((x) => x.stories.some((st) => st.id === target));
      const i = kept[g]?.stories.findIndex((st) => st.id === target) ?? 0;
      return { viewer: { groups: kept, groupIndex: g, storyIndex: i } };
    }),
  openEditor: () => set({ editorOpen: true }),
  closeEditor: () => set({ editorOpen: false }),
  setPending: (key, patch) =>
    set((s) => {
      if (patch === null) return { pending: s.pending.filter((p) => p.key !== key) };
      const found = s.pending.find((p) => p.key === key);
      if (!found)
        return {
          pending: [...s.pending, { key, previewUrl: null, progress: 0, status: 'uploading', ...patch }],
        };
      return { pending: s.pending.map((p) => (p.key === key ? { ...p, ...patch } : p)) };
    }),
}));
