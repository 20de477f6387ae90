import { create } from 'zustand';

type CreateModal = 'chooser' | 'post' | null;

interface UploadUi {
  modal: CreateModal;
  open: (modal: CreateModal) => void;
  close: () => void;
}

export const useUploadUi = create<UploadUi>((set) => ({
  modal: null,
  open: (modal) => set({ modal }),
  close: () => set({ modal: null }),
}));
