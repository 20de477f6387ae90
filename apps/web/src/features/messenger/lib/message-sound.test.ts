import type { ChatMute, ChatRef } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import {
  type IncomingMessage,
  isChatMuted,
  shouldPlayMessageSound,
  shouldShowBanner,
} from './message-sound.ts';

const NOW = Date.parse('2026-01-01T12:00:00.000Z');
const personal: ChatRef = { type: 'personal', user_id: 2, is_favorites: false };
const group: ChatRef = { type: 'group', user_id: 7, is_favorites: false };
const channel: ChatRef = { type: 'channel', user_id: 7, is_favorites: false };

const incoming = (over: Partial<IncomingMessage> = {}): IncomingMessage => ({
  chat: personal,
  message: { sender_id: 2, message_type: 'text' },
  ownId: 1,
  openPeerId: null,
  soundsOn: true,
  mutes: [],
  now: NOW,
  ...over,
});

describe('message sound decision', () => {
  it('plays for someone else’s message in a closed, unmuted chat with sounds on', () => {
    expect(shouldPlayMessageSound(incoming())).toBe(true);
    expect(shouldPlayMessageSound(incoming({ chat: group, openPeerId: 2 }))).toBe(true);
  });

  it('stays silent with sounds off, for one’s own message, favorites, calls and the open chat', () => {
    expect(shouldPlayMessageSound(incoming({ soundsOn: false }))).toBe(false);
    expect(shouldPlayMessageSound(incoming({ message: { sender_id: 1, message_type: 'text' } }))).toBe(false);
    expect(
      shouldPlayMessageSound(incoming({ chat: { type: 'personal', user_id: 1, is_favorites: true } })),
    ).toBe(false);
    expect(shouldPlayMessageSound(incoming({ message: { sender_id: 2, message_type: 'call' } }))).toBe(false);
    expect(shouldPlayMessageSound(incoming({ openPeerId: 2 }))).toBe(false);
    expect(shouldPlayMessageSound(incoming({ chat: group, openPeerId: -7 }))).toBe(false);
  });

  it('a muted chat never plays, until its mute ends', () => {
    const forever: ChatMute[] = [{ chat: { chat_user_id: 2 }, muted_until: null }];
    expect(shouldPlayMessageSound(incoming({ mutes: forever }))).toBe(false);
    const hour: ChatMute[] = [
      { chat: { group_id: 7 }, muted_until: new Date(NOW + 3_600_000).toISOString() },
    ];
    expect(shouldPlayMessageSound(incoming({ chat: group, mutes: hour }))).toBe(false);
    expect(shouldPlayMessageSound(incoming({ chat: group, mutes: hour, now: NOW + 3_600_001 }))).toBe(true);
  });

  it('matches a mute by the chat’s kind and id only', () => {
    const mutes: ChatMute[] = [{ chat: { group_id: 7 }, muted_until: null }];
    expect(isChatMuted(mutes, group, NOW)).toBe(true);
    expect(isChatMuted(mutes, channel, NOW)).toBe(false);
    expect(isChatMuted(mutes, { type: 'personal', user_id: 7, is_favorites: false }, NOW)).toBe(false);
  });
});

describe('in-app banner decision', () => {
  it('shows for someone else’s message in a chat not on screen, whatever the sound setting', () => {
    expect(shouldShowBanner(incoming({ soundsOn: false }))).toBe(true);
    expect(shouldShowBanner(incoming({ chat: group, openPeerId: 2 }))).toBe(true);
  });

  it('not for the open chat, a muted chat, one’s own message, favorites, a call or a service line', () => {
    expect(shouldShowBanner(incoming({ openPeerId: 2 }))).toBe(false);
    expect(shouldShowBanner(incoming({ chat: group, openPeerId: -7 }))).toBe(false);
    expect(shouldShowBanner(incoming({ mutes: [{ chat: { chat_user_id: 2 }, muted_until: null }] }))).toBe(
      false,
    );
    expect(shouldShowBanner(incoming({ message: { sender_id: 1, message_type: 'text' } }))).toBe(false);
    expect(shouldShowBanner(incoming({ chat: { ...personal, is_favorites: true } }))).toBe(false);
    expect(shouldShowBanner(incoming({ message: { sender_id: 2, message_type: 'call' } }))).toBe(false);
    expect(
      shouldShowBanner(incoming({ chat: group, message: { sender_id: 2, message_type: 'service' } })),
    ).toBe(false);
  });
});
