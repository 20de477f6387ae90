import { Check } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useUserSearch } from '../api/groups-api.ts';
import { groupsStrings as S } from '../strings.ts';
import g from './groups.module.css';

export interface PickableUser {
  id: number;
  name: string;
  username: string;
}

interface Props {
  picked: readonly PickableUser[];
  onToggle: (user: PickableUser) => void;
  /** People offered before anything is typed (a channel's subscribers). */
  suggestions?: readonly PickableUser[];
  /** Shown greyed with a note instead of being offered (already in the group). */
  unavailable?: ReadonlySet<number>;
  unavailableNote?: string;
}

/** People search (debounced 300 ms) with toggle buttons; the caller decides one or many. */
export function UserPicker({ picked, onToggle, suggestions = [], unavailable, unavailableNote }: Props) {
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setDebounced(query.trim()), 300);
    return () => clearTimeout(t);
  }, [query]);
  const found = useUserSearch(debounced);
  const users: readonly PickableUser[] = debounced === '' ? suggestions : (found.data?.users ?? []);
  return (
    <div className={g.form}>
      <label>
        {S.searchMembers}
        <input type="search" value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
      </label>
      {debounced !== '' && found.isSuccess && users.length === 0 ? (
        <p className={g.muted}>{S.nobodyFound}</p>
      ) : null}
      {users.length > 0 ? (
        <ul className={g.results}>
          {users.map((u) => {
            const off = unavailable?.has(u.id) === true;
            const on = picked.some((p) => p.id === u.id);
            return (
              <li key={u.id}>
                <button type="button" aria-pressed={on} disabled={off} onClick={() => onToggle(u)}>
                  {on ? <Check size={14} aria-hidden /> : null} {u.name}{' '}
                  <span className={g.muted}>
                    @{u.username}
                    {off && unavailableNote ? ` · ${unavailableNote}` : ''}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
