import { create } from 'zustand';

interface NotificationsUi {
  open: boolean;
  setOpen(open: boolean): void;
}

/** Whether the notifications panel is open (the bell toggles it). */
export const useNotificationsUi = create<NotificationsUi>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
