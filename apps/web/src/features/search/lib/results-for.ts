import type { SearchKind, SearchResponse } from '@kadr/contract';

/**
 * What a tab shows of an answer: all of it under «Все», only its own kind under the others. While a newly chosen
 * tab loads, the answer shown is the previous tab's (kept so the list does not blink); cut to the tab, it never
 * shows posts under «Хэштеги» or people under «Публикации».
 */
export function resultsFor(data: SearchResponse, tab: SearchKind): SearchResponse {
  if (tab === 'all') return data;
  return {
    ...data,
    people: tab === 'people' ? data.people : [],
    posts: tab === 'posts' ? data.posts : [],
    hashtags: tab === 'hashtags' ? data.hashtags : [],
  };
}
