import { createElement, lazy } from 'react';
import { Route } from 'react-router';
import { defineFeature } from '../../app/feature.ts';

export { messengerSearchOptions } from './api/search-api.ts';

const TagPage = lazy(() => import('./components/TagPage.tsx').then((m) => ({ default: m.TagPage })));

/** The media feed's search panel, for the media feature to open from its context button. */
export const SearchPanel = lazy(() =>
  import('./components/SearchPanel.tsx').then((m) => ({ default: m.SearchPanel })),
);

/** One search built for Russian (people, posts, hashtags, rooms, messages) and the hashtag page. */
export const searchFeature = defineFeature({
  name: 'search',
  routes: [createElement(Route, { key: 'tag', path: 'tags/:tag', element: createElement(TagPage) })],
});
