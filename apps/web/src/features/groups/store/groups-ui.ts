import { create } from 'zustand';

/** Group typing: who types where, until when (spec §4.11: expires after 3 s unless renewed). */
interface GroupsUi {
  typing: Record<number, { name: string; until: number } | undefined>;
  createOpen: 'group' | 'channel' | null;
  setTyping: (groupId: number, name: string, on: boolean) => void;
  setCreateOpen: (kind: 'group' | 'channel' | null) => void;
}

export const useGroupsUi = create<GroupsUi>((set) => ({
  typing: {},
  createOpen: null,
  setTyping: (groupId, name, on) =>
    set((s) => ({ typing: { ...s.typing, [groupId]: on ? { name, until: Date.now() + 3000 } : undefined } })),
  setCreateOpen: (kind) => set({ createOpen: kind }),
}));
