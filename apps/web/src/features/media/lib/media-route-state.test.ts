import { describe, expect, it } from 'vitest';
import { parseMediaRouteState } from './media-route-state.ts';

describe('parseMediaRouteState', () => {
  it('reads the profile and actions modes', () => {
    expect(parseMediaRouteState({ from: 'profile', username: 'boris', postIndex: 2 })).toEqual({
      from: 'profile',
      username: 'boris',
      posts: undefined,
      postIndex: 2,
    });
    expect(parseMediaRouteState({ from: 'actions', tab: 'saved', postIndex: 1 })).toEqual({
      from: 'actions',
      tab: 'saved',
      postIndex: 1,
    });
  });

  it('reads the chat mode the messenger opens with', () => {
    expect(
      parseMediaRouteState({ fromChat: true, chatId: 7, chatType: 'group', chatName: 'Друзья' }),
    ).toEqual({
      from: 'chat',
      chatId: 7,
      chatType: 'group',
      chatName: 'Друзья',
    });
    expect(parseMediaRouteState({ fromChat: true, chatId: 3, chatName: 'Анна' })).toMatchObject({
      chatType: 'personal',
    });
    expect(parseMediaRouteState({ fromChat: true, chatId: '3', chatName: 'Анна' })).toBeNull();
  });

  it('falls back to the feed for anything else', () => {
    expect(parseMediaRouteState(null)).toBeNull();
    expect(parseMediaRouteState({ fromMedia: true })).toBeNull();
    expect(parseMediaRouteState({ from: 'actions', tab: 'other' })).toBeNull();
    expect(parseMediaRouteState({ from: 'profile', username: '' })).toBeNull();
  });

  it('never yields a negative index', () => {
    expect(parseMediaRouteState({ from: 'actions', tab: 'liked', postIndex: -3 })).toMatchObject({
      postIndex: 0,
    });
  });
});
