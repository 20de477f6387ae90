import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, use, useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { useRealtime } from '../../shared/realtime/socket.ts';
import { createVoiceController, type VoiceController, type VoiceState } from './voice-controller.ts';

const VoiceChatContext = createContext<VoiceController | null>(null);

/**
 * Owns this device's group voice session (spec §8: the voice-chat provider wraps the messenger). It sits
 * above the routes rather than around the messenger view alone: the mini bar stays across navigation and
 * the media room must outlive leaving /messenger. `controller` lets tests hand in one built with stubs.
 */
export function VoiceChatProvider({
  children,
  controller: given,
}: {
  children: ReactNode;
  controller?: VoiceController;
}) {
  const queryClient = useQueryClient();
  const [controller] = useState(() => given ?? createVoiceController({ queryClient }));
  const socket = useRealtime((s) => s.socket);
  useEffect(() => (socket ? controller.attachRealtime(socket) : undefined), [controller, socket]);
  useEffect(() => () => controller.dispose(), [controller]);
  return <VoiceChatContext value={controller}>{children}</VoiceChatContext>;
}

/** The voice session controller; throws outside VoiceChatProvider (spec §8) instead of acting on nothing. */
export function useVoiceChat(): VoiceController {
  const controller = use(VoiceChatContext);
  if (!controller)
    throw new Error(
      'useVoiceChat must be used inside <VoiceChatProvider>: the voice feature is not registered above this component',
    );
  return controller;
}

/** A slice of the voice state, re-rendering only when it changes. */
export function useVoiceState<T>(selector: (state: VoiceState) => T): T {
  return useStore(useVoiceChat().store, selector);
}
