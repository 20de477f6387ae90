import { describe, expect, it } from 'vitest';
import { conversationUrl, firstRequests, frameKind, groupMessagesUrl } from './first-requests.ts';

/** What every page of the shell asks for: the session check, the messenger badge (the chat list), the settings. */
const SHELL = ['/api/v1/auth/me', '/api/v1/messages/chats', '/api/v1/settings'];

describe('the first requests of a page (boot script)', () => {
  it('names each kind of page by its path', () => {
    expect(frameKind('/login')).toBe('auth');
    expect(frameKind('/home')).toBe('home');
    expect(frameKind('/media')).toBe('media');
    expect(frameKind('/media/post/12')).toBe('media');
    expect(frameKind('/messenger')).toBe('messenger');
    expect(frameKind('/messenger/anna')).toBe('chat');
    expect(frameKind('/messenger/group/hikers')).toBe('group');
    expect(frameKind('/messenger/group')).toBe('plain');
    expect(frameKind('/messenger/invite/abc')).toBe('plain');
    expect(frameKind('/anna_b')).toBe('profile');
    expect(frameKind('/settings')).toBe('plain');
    expect(frameKind('/settings/privacy')).toBe('plain');
    expect(frameKind('/live/new')).toBe('plain');
  });

  it('starts the home page’s lists beside the session check, the first tile from the following list', () => {
    const plan = firstRequests('/home', '');
    expect(plan.urls).toEqual([
      ...SHELL,
      '/api/v1/notifications?limit=1',
      '/api/v1/livestreams/active?limit=20',
      '/api/v1/stories/feed?limit=20',
      '/api/v1/media/following?limit=30',
      '/api/v1/invitations',
      '/api/v1/profile/follow-requests?limit=30',
    ]);
    expect(plan.lcp).toEqual({ url: '/api/v1/media/following?limit=30', source: 'following' });
  });

  it('a story opened by link asks for the story first and leaves the home page’s lists to the app', () => {
    const plan = firstRequests('/home', '?story=7');
    expect(plan.urls).toEqual(['/api/v1/stories/7', ...SHELL]);
    // Its picture is the largest, not the first tile.
    expect(plan.lcp).toEqual({ url: '/api/v1/stories/7', source: 'story' });
    // Not a story id: the plain home page.
    expect(firstRequests('/home', '?story=abc').urls).toEqual(firstRequests('/home', '').urls);
  });

  it('a chat page follows the chat list to its conversation; a profile has no messenger badge', () => {
    expect(firstRequests('/messenger/anna', '').chatWith).toBe('anna');
    expect(conversationUrl(5)).toBe('/api/v1/messages/conversation?other_user_id=5&limit=30&offset=0');
    expect(firstRequests('/anna', '').urls).toEqual([
      '/api/v1/auth/me',
      '/api/v1/settings',
      '/api/v1/profile/anna',
      '/api/v1/settings/blocked',
      '/api/v1/media/user/anna?limit=50',
    ]);
    expect(firstRequests('/login', '').urls).toEqual([]);
  });

  it('a group page asks for the group, then its newest messages as its chat does', () => {
    const plan = firstRequests('/messenger/group/hikers', '');
    expect(plan.urls).toEqual([...SHELL, '/api/v1/groups/by-slug/hikers']);
    expect(plan.group).toBe('/api/v1/groups/by-slug/hikers');
    expect(groupMessagesUrl(5)).toBe('/api/v1/groups/5/messages?limit=30&offset=0');
  });
});
