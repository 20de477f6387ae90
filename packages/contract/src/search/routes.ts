import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import {
  MessengerSearchQuery,
  MessengerSearchResponse,
  RecentBody,
  RecentQuery,
  RecentResponse,
  SearchQuery,
  SearchResponse,
  TagParams,
  TagPostsQuery,
  TagPostsResponse,
} from './schemas.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 429: ErrorBody } as const;
const understands =
  'Understands Russian: word forms (stemming), ё = е, the wrong keyboard layout both ways (ghbdtn → привет), ' +
  'transliteration both ways (privet ↔ привет), typos (trigram similarity over the vocabulary).';

/** One search over people, posts, hashtags, rooms and messages; recent searches per user. */
export const searchRoutes = {
  media: defineRoute({
    method: 'GET',
    path: '/search',
    access: 'user',
    who: 'signed-in users; people who blocked the caller, or whom the caller blocked, and their posts are not found',
    summary: `The media feed's search: people, posts (caption, hashtags, AI tags, AI description) and hashtags. ${understands}`,
    query: SearchQuery,
    response: { 200: SearchResponse, ...errors },
  }),
  messenger: defineRoute({
    method: 'GET',
    path: '/search/messenger',
    access: 'user',
    who: "signed-in users; messages only from the caller's own chats; blocked people are not found",
    summary: `The messenger's search: people, public groups and channels, and messages. ${understands}`,
    query: MessengerSearchQuery,
    response: { 200: MessengerSearchResponse, ...errors },
  }),
  tag: defineRoute({
    method: 'GET',
    path: '/search/tags/:tag',
    access: 'user',
    summary:
      'The hashtag page (/tags/{tag} on the web): posts with the caption hashtag or the AI tag, in Russian or English form, newest first.',
    params: TagParams,
    query: TagPostsQuery,
    response: { 200: TagPostsResponse, ...errors },
  }),
  recent: defineRoute({
    method: 'GET',
    path: '/search/recent',
    access: 'user',
    summary: "The caller's recent searches in one place, newest first",
    query: RecentQuery,
    response: { 200: RecentResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  remember: defineRoute({
    method: 'POST',
    path: '/search/recent',
    access: 'user',
    summary: 'Keeps a search the caller made (opened a result of); the oldest beyond ten are forgotten',
    body: RecentBody,
    response: { 200: RecentResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  forget: defineRoute({
    method: 'DELETE',
    path: '/search/recent',
    access: 'user',
    summary: "Clears the caller's recent searches in one place",
    query: RecentQuery,
    response: { 200: RecentResponse, 400: ErrorBody, 401: ErrorBody },
  }),
};
