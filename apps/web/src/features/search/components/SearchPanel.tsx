import type { SearchKind } from '@kadr/contract';
import { Hash } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import {
  useForgetSearches,
  useMediaSearch,
  useRecentSearches,
  useRememberSearch,
} from '../api/search-api.ts';
import { Highlighted } from '../lib/Highlighted.tsx';
import { resultsFor } from '../lib/results-for.ts';
import { searchStrings as T } from '../strings.ts';
import { PostTiles } from './PostTiles.tsx';
import styles from './SearchResults.module.css';

/** Typing pauses this long before a search is sent (results as you type). */
export const SEARCH_DEBOUNCE_MS = 250;

const TABS: readonly SearchKind[] = ['all', 'people', 'posts', 'hashtags'];

/** The text after the user stops typing for a moment. */
export function useDebounced(text: string, ms = SEARCH_DEBOUNCE_MS): string {
  const [value, setValue] = useState(text.trim());
  useEffect(() => {
    const timer = setTimeout(() => setValue(text.trim()), ms);
    return () => clearTimeout(timer);
  }, [text, ms]);
  return value;
}

/**
 * The media feed's search (spec §2.4 context button): people, posts and hashtags in tabs, as you type; the
 * server reads word forms, the wrong keyboard layout, transliteration and typos. `sleep`: sleep mode is on
 * (only posts for it).
 */
export function SearchPanel({ onClose, sleep = false }: { onClose: () => void; sleep?: boolean }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [tab, setTab] = useState<SearchKind>('all');
  const q = useDebounced(text);
  const search = useMediaSearch(q, tab, sleep);
  const recent = useRecentSearches('media');
  const remember = useRememberSearch('media');
  const forget = useForgetSearches('media');
  const tabsId = useId();

  const open = (path: string) => {
    if (q) remember.mutate(q);
    onClose();
    navigate(path);
  };

  // An answer kept from the previous query or tab (placeholder data) shows only what this tab lists, and is not
  // taken for "nothing found" while this tab's own answer loads.
  const data = search.data && resultsFor(search.data, tab);
  const forms = data?.forms ?? [];
  const nothing =
    data && !search.isPlaceholderData && data.people.length + data.posts.length + data.hashtags.length === 0;

  return (
    <Sheet title={T.title} onClose={onClose} fullScreen testId="search-panel">
      <div className={styles.panel}>
        <input
          className={styles.input}
          type="search"
          value={text}
          placeholder={T.placeholder}
          aria-label={T.label}
          aria-controls={`${tabsId}-panel`}
          autoFocus
          enterKeyHint="search"
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && q) remember.mutate(q);
          }}
        />
        <div role="tablist" aria-label={T.tabsLabel} className={styles.tabs}>
          {TABS.map((kind) => (
            <button
              key={kind}
              type="button"
              role="tab"
              id={`${tabsId}-${kind}`}
              aria-selected={tab === kind}
              aria-controls={`${tabsId}-panel`}
              className={styles.tab}
              onClick={() => setTab(kind)}
            >
              {T.tabs[kind]}
            </button>
          ))}
        </div>
        <div
          id={`${tabsId}-panel`}
          role="tabpanel"
          aria-labelledby={`${tabsId}-${tab}`}
          aria-live="polite"
          aria-busy={search.isFetching}
          className={styles.results}
        >
          {q === '' ? (
            <RecentList
              items={recent.data?.recent.map((r) => r.query) ?? []}
              onPick={setText}
              onClear={() => forget.mutate()}
            />
          ) : search.isPending ? (
            <Spinner />
          ) : search.isError ? (
            <p className={styles.empty}>{T.error}</p>
          ) : nothing ? (
            <p className={styles.empty}>{T.empty}</p>
          ) : data ? (
            <>
              {data.people.length > 0 ? (
                <ResultSection title={T.tabs.people} titled={tab === 'all'}>
                  <ul className={styles.list}>
                    {data.people.map((user) => (
                      <ResultRow key={user.id} onClick={() => open(`/${user.username}`)}>
                        <Avatar
                          name={user.name}
                          url={user.avatar_thumbnail_url ?? user.avatar_url}
                          size={40}
                        />
                        <span className={styles.rowText}>
                          <Highlighted text={user.name} forms={forms} />
                          <span className={styles.muted}>@{user.username}</span>
                        </span>
                      </ResultRow>
                    ))}
                  </ul>
                </ResultSection>
              ) : null}
              {data.hashtags.length > 0 ? (
                <ResultSection title={T.tabs.hashtags} titled={tab === 'all'}>
                  <ul className={styles.list}>
                    {data.hashtags.map((h) => (
                      <ResultRow key={h.tag} onClick={() => open(`/tags/${encodeURIComponent(h.tag)}`)}>
                        <span className={styles.hashIcon}>
                          <Hash size={20} aria-hidden="true" />
                        </span>
                        <span className={styles.rowText}>
                          <span>
                            #<Highlighted text={h.name} forms={forms} />
                          </span>
                          <span className={styles.muted}>{T.posts(h.posts_count)}</span>
                        </span>
                      </ResultRow>
                    ))}
                  </ul>
                </ResultSection>
              ) : null}
              {data.posts.length > 0 ? (
                <ResultSection title={T.tabs.posts} titled={tab === 'all'}>
                  <PostTiles
                    posts={data.posts}
                    forms={forms}
                    onOpen={(post) => open(`/media/post/${post.id}`)}
                  />
                </ResultSection>
              ) : null}
            </>
          ) : null}
        </div>
      </div>
    </Sheet>
  );
}

function RecentList({
  items,
  onPick,
  onClear,
}: {
  items: readonly string[];
  onPick: (text: string) => void;
  onClear: () => void;
}) {
  if (items.length === 0) return null;
  return (
    <section className={styles.section} aria-label={T.recent}>
      <div className={styles.recentHeader}>
        <h2 className={styles.sectionTitle}>{T.recent}</h2>
        <button type="button" className={styles.link} onClick={onClear}>
          {T.clearRecent}
        </button>
      </div>
      <ul className={styles.list}>
        {items.map((item) => (
          <ResultRow key={item} onClick={() => onPick(item)}>
            {item}
          </ResultRow>
        ))}
      </ul>
    </section>
  );
}

/** One kind of result: named for screen readers, titled on the «Все» tab where kinds stand together. */
function ResultSection({ title, titled, children }: { title: string; titled: boolean; children: ReactNode }) {
  return (
    <section className={styles.section} aria-label={title}>
      {titled ? <h2 className={styles.sectionTitle}>{title}</h2> : null}
      {children}
    </section>
  );
}

/** A result's row: the whole row is the button that opens it. */
function ResultRow({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <li>
      <button type="button" className={styles.row} onClick={onClick}>
        {children}
      </button>
    </li>
  );
}
