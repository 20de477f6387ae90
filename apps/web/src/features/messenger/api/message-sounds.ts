import type { ChatRef, Message } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import { ensureSettings, fetchMutes } from '../../settings/api/settings-queries.ts';
import { type IncomingMessage, shouldPlayMessageSound, shouldShowBanner } from '../lib/message-sound.ts';
import { playMessageTone } from '../lib/message-tone.ts';

/**
 * An incoming message's sound, decided by the user's server-stored settings ("message sounds" and the chat's
 * mute). Resolves whether it played; a failed settings or mutes request plays nothing.
 */
export async function soundIncomingMessage(
  queryClient: QueryClient,
  event: { chat: ChatRef; message: Message; ownId: number; openPeerId: number | null },
  play: () => void = playMessageTone,
  now: () => number = Date.now,
): Promise<boolean> {
  try {
    const settings = await ensureSettings(queryClient);
    const input: IncomingMessage = {
      ...event,
      soundsOn: settings.notifications.message_sounds,
      mutes: [],
      now: now(),
    };
    // The mute list is the one input that may cost a request: asked only when everything else says play.
    if (!shouldPlayMessageSound(input)) return false;
    if (!shouldPlayMessageSound({ ...input, mutes: await fetchMutes(queryClient) })) return false;
    play();
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether an incoming message shows the in-app banner (not on screen, not muted). The mute list may cost a
 * request, asked only when everything else says show; a failed request shows nothing.
 */
export async function bannerWanted(
  queryClient: QueryClient,
  event: { chat: ChatRef; message: Message; ownId: number; openPeerId: number | null },
  now: () => number = Date.now,
): Promise<boolean> {
  const input = { ...event, mutes: [], now: now() };
  if (!shouldShowBanner(input)) return false;
  try {
    return shouldShowBanner({ ...input, mutes: await fetchMutes(queryClient) });
  } catch {
    return false;
  }
}
