import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl, Limits } from '@kadr/contract/browser';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { invitationsEndpoints } from '@kadr/contract/invitations/endpoints';
import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { notificationsEndpoints } from '@kadr/contract/notifications/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { settingsEndpoints } from '@kadr/contract/settings/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';

/** Which page a path opens, as far as the first paint and the first requests care. */
export type FrameKind = 'auth' | 'home' | 'media' | 'messenger' | 'chat' | 'group' | 'profile' | 'plain';

/** First path segments that are pages of their own, never a profile's username (AppRoutes, features). */
const PAGES = 'home|media|feed|messenger|settings|live|login|register|moderation';

/**
 * Which kind of page a path is, as patterns the server matches too (it picks the frame it puts into the
 * HTML from `frames.json`, built from these): first match wins, no match is a plain page.
 */
export const FRAME_ROUTES: ReadonlyArray<readonly [FrameKind, string]> = [
  ['auth', '^/(?:login|register)(?:/|$)'],
  ['home', '^/home/?$'],
  ['media', '^/(?:media|feed)(?:/|$)'],
  ['messenger', '^/messenger/?$'],
  ['chat', `^/messenger/(?!(?:${PAGES}|group|channel|invite)/?$)[^/]+/?$`],
  ['group', '^/messenger/group/[^/]+/?$'],
  ['profile', `^/(?!(?:${PAGES})/?$)[a-z0-9_]{3,32}/?$`],
];

export function frameKind(pathname: string): FrameKind {
  for (const [kind, pattern] of FRAME_ROUTES) if (new RegExp(pattern).test(pathname)) return kind;
  return 'plain';
}

/** The image a page's first screen shows largest, read from one of its first answers (see boot-script.ts). */
export type LcpSource = 'following' | 'user-posts' | 'feed' | 'story';

export interface FirstRequests {
  /** GET URLs the page asks for as it starts, exactly as its queries build them. */
  urls: string[];
  /** A chat page: the conversation follows from the chat list (the peer's id is in it). */
  chatWith?: string;
  /** A group page: its messages follow from the group (its id, and whether the reader is a member). */
  group?: string;
  lcp?: { url: string; source: LcpSource };
}

/**
 * What a signed-in page asks the API for before it shows anything ("no round trip before
 * content"). The boot script in index.html starts these from the stored token while the scripts download;
 * the app's API client takes each answer instead of asking again (shared/api/boot-responses.ts). A URL
 * here that no query asks for is wasted, and one a query builds differently is fetched twice — the
 * first-load browser test fails on both.
 */
export function firstRequests(pathname: string, search: string): FirstRequests {
  const kind = frameKind(pathname);
  if (kind === 'auth' || kind === 'plain') return { urls: [] };
  // The shell, on every page: the session check, the messenger badge (the chat list) and the settings.
  const urls = [apiUrl(authEndpoints.me), apiUrl(messengerEndpoints.chats), apiUrl(settingsEndpoints.get)];
  const segment = pathname.split('/').filter(Boolean);
  switch (kind) {
    case 'home': {
      const story = new URLSearchParams(search).get('story');
      const storyUrl =
        story && /^\d{1,10}$/.test(story) ? apiUrl(storiesEndpoints.get, { id: Number(story) }) : null;
      // Opened on a story (a shared link): its picture, over the whole screen, is the largest, and the only
      // thing on it. The story goes first and the home page's lists are left to the app: on a phone's six
      // connections and thin bandwidth, five list answers beside it held the picture's request back.
      if (storyUrl) return { urls: [storyUrl, ...urls], lcp: { url: storyUrl, source: 'story' } };
      const following = apiUrl(storiesEndpoints.homeFeed, undefined, { limit: 30 });
      urls.push(
        apiUrl(notificationsEndpoints.list, undefined, { limit: 1 }),
        apiUrl(livestreamsEndpoints.active, undefined, { limit: Limits.activeStreams }),
        apiUrl(storiesEndpoints.feed, undefined, { limit: 20 }),
        following,
        // The rest of the bell's badge (pending invitations and follow requests), after the first tile's list:
        // asked by the app, each request was main-thread work of the first render's commit, after the first paint.
        apiUrl(invitationsEndpoints.list),
        apiUrl(profileEndpoints.followRequests, undefined, { limit: Limits.followListPage }),
      );
      return { urls, lcp: { url: following, source: 'following' } };
    }
    case 'media': {
      if (segment.length > 1) return { urls };
      const feed = apiUrl(mediaEndpoints.feed, undefined, { offset: 0, limit: Limits.feedPage });
      urls.push(feed, apiUrl(mediaEndpoints.blacklist));
      return { urls, lcp: { url: feed, source: 'feed' } };
    }
    case 'messenger':
      return { urls };
    case 'chat':
      return { urls, chatWith: segment[1] };
    case 'group': {
      const group = apiUrl(groupsEndpoints.bySlug, { slug: segment[2] ?? '' });
      urls.push(group);
      return { urls, group };
    }
    case 'profile': {
      const username = segment[0] ?? '';
      const posts = apiUrl(mediaEndpoints.userPosts, { username }, { limit: Limits.mediaListPage });
      urls.push(apiUrl(profileEndpoints.get, { username }), apiUrl(settingsEndpoints.blocked), posts);
      // A profile page has no shell: no messenger badge.
      urls.splice(urls.indexOf(apiUrl(messengerEndpoints.chats)), 1);
      return { urls, lcp: { url: posts, source: 'user-posts' } };
    }
  }
}

/** The conversation a chat page opens with (the newest messages), once the chat list named the peer. */
export function conversationUrl(peerId: number): string {
  return apiUrl(messengerEndpoints.conversation, undefined, {
    other_user_id: peerId,
    limit: Limits.messagesInitial,
    offset: 0,
  });
}

/** A group's newest messages (its chat's first page), once the group named its id. */
export function groupMessagesUrl(groupId: number): string {
  return apiUrl(groupsEndpoints.messages, { id: groupId }, { limit: Limits.messagesInitial, offset: 0 });
}
