import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../../../shared/api/client.ts';
import { Avatar } from '../../../../shared/ui/Avatar.tsx';
import { Sheet } from '../../../../shared/ui/Sheet.tsx';
import { Spinner } from '../../../../shared/ui/Spinner.tsx';
import styles from '../../components/Panels.module.css';
import { mediaStrings } from '../../strings.ts';

const T = mediaStrings.search;
const DEBOUNCE_MS = 300;

/** The media view's search: people by username or name; a result opens the profile. */
export function UserSearchPanel({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const search = useQuery({
    queryKey: ['user-search', q],
    queryFn: ({ signal }) => api.call(profileEndpoints.search, { query: { q }, signal }),
    enabled: q !== '',
  });

  let results: React.ReactNode = null;
  if (q !== '' && search.isPending) results = <Spinner />;
  else if (q !== '' && search.data?.users.length === 0) results = <p className={styles.empty}>{T.empty}</p>;
  else if (search.data)
    results = (
      <ul className={styles.list}>
        {search.data.users.map((user) => (
          <li key={user.id}>
            <button
              type="button"
              className={styles.userRow}
              onClick={() => {
                onClose();
                navigate(`/${user.username}`);
              }}
            >
              <Avatar name={user.name} url={user.avatar_thumbnail_url ?? user.avatar_url} size={40} />
              <span className={styles.toggleText}>
                <span>{user.name}</span>
                <span className={styles.muted}>@{user.username}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    );

  return (
    <Sheet title={T.title} onClose={onClose}>
      <input
        className={styles.input}
        type="search"
        value={text}
        placeholder={T.placeholder}
        aria-label={T.placeholder}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <div style={{ marginTop: 12 }}>{results}</div>
    </Sheet>
  );
}
