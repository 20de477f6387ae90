import type { SearchResponse } from '@kadr/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';
import { postOf } from '../../../test/posts.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { searchStrings as T } from '../strings.ts';
import { SearchPanel } from './SearchPanel.tsx';

afterEach(() => vi.unstubAllGlobals());

/** «Всё» answers people, posts and hashtags; the other tabs' own requests stay pending. */
const everything: SearchResponse = {
  forms: ['горы'],
  people: [{ id: 3, username: 'gory', name: 'Горы Кавказа', avatar_url: null, avatar_thumbnail_url: null }],
  posts: [postOf({ id: 41, caption: 'Горы на рассвете' })],
  hashtags: [{ tag: 'горы', name: 'горы', posts_count: 12 }],
  has_more: false,
};

function renderPanel(all: SearchResponse = everything) {
  const { wrapper, urls } = stubbedApp((url) => {
    if (url.includes('/search/recent')) return jsonResponse({ recent: [] });
    if (url.includes('kind=all')) return jsonResponse(all);
    return new Promise<Response>(() => undefined);
  });
  render(<SearchPanel onClose={() => undefined} />, { wrapper });
  return { urls };
}

describe('the media search panel', () => {
  it('while a chosen tab loads, shows only its own kind of the kept answer and never «nothing found»', async () => {
    const { urls } = renderPanel();
    fireEvent.change(screen.getByRole('searchbox', { name: T.label }), { target: { value: 'горы' } });
    expect(await screen.findByRole('region', { name: T.tabs.posts })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: T.tabs.people })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: T.tabs.hashtags }));
    expect(screen.getByRole('tab', { name: T.tabs.hashtags })).toHaveAttribute('aria-selected', 'true');
    // The tab's own request goes out (in the next task) and has not answered.
    await waitFor(() => expect(urls().some((url) => url.includes('kind=hashtags'))).toBe(true));
    expect(screen.getByRole('region', { name: T.tabs.hashtags })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: T.tabs.posts })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: T.tabs.people })).not.toBeInTheDocument();
    expect(screen.queryByText(T.empty)).not.toBeInTheDocument();
    expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-busy', 'true');
  });

  it('a tab whose kind the kept answer lacks stays empty and busy, not «nothing found», until its answer', async () => {
    renderPanel({ ...everything, people: [] });
    fireEvent.change(screen.getByRole('searchbox', { name: T.label }), { target: { value: 'горы' } });
    expect(await screen.findByRole('region', { name: T.tabs.posts })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: T.tabs.people }));
    expect(screen.queryByRole('region', { name: T.tabs.posts })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: T.tabs.hashtags })).not.toBeInTheDocument();
    expect(screen.queryByText(T.empty)).not.toBeInTheDocument();
    expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-busy', 'true');
  });
});
