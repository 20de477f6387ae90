import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { messengerSearchOptions } from '../../search/feature.ts';
import { groupsStrings as S } from '../strings.ts';
import g from './groups.module.css';

/** Typing pauses this long before the server is asked (as the message search). */
const DEBOUNCE_MS = 300;
const MIN_CHARS = 2;

interface Hit {
  kind: 'group' | 'channel';
  id: number;
  name: string;
  slug: string;
  avatar_url: string | null;
  count: number;
}

function useDebounced(value: string): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [value]);
  return debounced;
}

/** Public groups and channels the user is not in yet, matching the chat search; a hit opens its preview. */
export function PublicRoomResults({ query }: { query: string }) {
  const navigate = useNavigate();
  const q = useDebounced(query.trim());
  const found = useQuery({
    ...messengerSearchOptions(q),
    enabled: q.replace(/^@/, '').length >= MIN_CHARS,
    select: (answer): Hit[] =>
      [...answer.groups, ...answer.channels]
        .filter((room) => !room.is_member && room.slug)
        .map((room) => ({
          kind: room.kind,
          id: room.id,
          name: room.title,
          slug: room.slug ?? '',
          avatar_url: room.avatar_url,
          count: room.member_count,
        }))
        .sort((x, y) => y.count - x.count),
  });
  const hits = found.data ?? [];
  if (hits.length === 0) return null;
  return (
    <section className={g.publicResults} aria-label={S.publicResults}>
      <h2 className={g.publicTitle}>{S.publicResults}</h2>
      <ul className={g.publicList}>
        {hits.map((hit) => (
          <li key={`${hit.kind}:${hit.id}`}>
            <button
              type="button"
              className={g.publicHit}
              data-testid="public-room-hit"
              aria-label={S.openPreview(hit.name)}
              onClick={() => navigate(`/messenger/${hit.kind}/${encodeURIComponent(hit.slug)}`)}
            >
              <Avatar name={hit.name} url={hit.avatar_url} size={40} alt="" />
              <span className={g.publicText}>
                <strong>{hit.name}</strong>
                <span>
                  {hit.kind === 'group' ? S.groupKind : S.channelKind} · @{hit.slug} ·{' '}
                  {hit.kind === 'group' ? S.memberCount(hit.count) : S.subscriberCount(hit.count)}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
