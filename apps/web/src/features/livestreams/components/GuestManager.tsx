import type { LiveStream } from '@kadr/contract';
import { Search, Shield, ShieldCheck, UserMinus, UserPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorMessage, isApiError } from '../../../shared/api/client.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { useAddGuest, useRemoveGuest, useUserSearch } from '../api/livestream-queries.ts';
import { useSetModerator } from '../api/stream-screen-queries.ts';
import { livestreamsStrings as t } from '../strings.ts';
import styles from './LiveStream.module.css';

/** Spec §5: the search starts only for a non-empty query, 300 ms after the last keystroke. */
export const GUEST_SEARCH_DEBOUNCE_MS = 300;

function useDebounced(value: string, ms: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** The host's guest list (up to 5, audio only) with a user search to invite more. */
export function GuestManager({ stream }: { stream: LiveStream }) {
  const [query, setQuery] = useState('');
  const debounced = useDebounced(query.trim(), GUEST_SEARCH_DEBOUNCE_MS);
  const search = useUserSearch(debounced);
  const add = useAddGuest(stream.id);
  const remove = useRemoveGuest(stream.id);
  const setModerator = useSetModerator(stream.id);
  const [error, setError] = useState<string | null>(null);
  const guestIds = new Set(stream.guests.map((g) => g.user_id));
  const candidates = (search.data?.users ?? []).filter((u) => u.id !== stream.user_id);

  const onAdd = (userId: number) => {
    setError(null);
    add.mutate(userId, {
      // The server's own text for the rules (limit, duplicate), the §8 text for anything else.
      onError: (e) => setError(isApiError(e) && e.status === 409 ? errorMessage(e) : t.addGuestFailed),
    });
  };
  const onRemove = (userId: number) => {
    setError(null);
    remove.mutate(userId, { onError: () => setError(t.removeGuestFailed) });
  };

  const onModerator = (userId: number, moderator: boolean) => {
    setError(null);
    setModerator.mutate({ userId, moderator }, { onError: () => setError(t.moderationFailed) });
  };

  return (
    <section className={styles.guests} aria-labelledby="live-guests-title">
      <h2 id="live-guests-title" className={styles.panelTitle}>
        {t.guestsTitle} · {stream.guests.length}/5
      </h2>
      {stream.guests.length === 0 ? (
        <p className={styles.muted}>{t.noGuests}</p>
      ) : (
        <ul className={styles.userList} aria-label={t.guestsTitle}>
          {stream.guests.map((g) => (
            <li key={g.user_id} className={styles.userRow}>
              <Avatar name={g.user.display_name} url={g.user.avatar_url} size={32} />
              <span className={styles.userName}>
                {g.user.display_name}
                {g.moderator && <span className={styles.muted}> · {t.moderatorBadge}</span>}
              </span>
              <button
                type="button"
                className={styles.smallButton}
                onClick={() => onModerator(g.user_id, !g.moderator)}
                aria-pressed={g.moderator}
                aria-label={`${t.makeModerator}: ${g.user.display_name}`}
                title={g.moderator ? t.unmakeModerator : t.makeModerator}
              >
                {g.moderator ? <ShieldCheck size={16} aria-hidden /> : <Shield size={16} aria-hidden />}
              </button>
              <button
                type="button"
                className={styles.smallButton}
                onClick={() => onRemove(g.user_id)}
                aria-label={`${t.removeGuest}: ${g.user.display_name}`}
              >
                <UserMinus size={16} aria-hidden /> {t.removeGuest}
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className={styles.searchBox}>
        <Search size={16} aria-hidden />
        <input
          type="search"
          value={query}
          maxLength={64}
          placeholder={t.guestSearch}
          aria-label={t.guestSearch}
          onChange={(e) => setQuery(e.target.value)}
        />
      </label>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {debounced !== '' && search.isSuccess && candidates.length === 0 && (
        <p className={styles.muted}>{t.noUsers}</p>
      )}
      {debounced !== '' && candidates.length > 0 && (
        <ul className={styles.userList} aria-label={t.guestSearch}>
          {candidates.map((u) => (
            <li key={u.id} className={styles.userRow}>
              <Avatar name={u.name} url={u.avatar_thumbnail_url ?? u.avatar_url} size={32} />
              <span className={styles.userName}>
                {u.name} <span className={styles.muted}>@{u.username}</span>
              </span>
              {!guestIds.has(u.id) && (
                <button
                  type="button"
                  className={styles.smallButton}
                  onClick={() => onAdd(u.id)}
                  aria-label={`${t.addGuest}: ${u.name}`}
                >
                  <UserPlus size={16} aria-hidden /> {t.addGuest}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
