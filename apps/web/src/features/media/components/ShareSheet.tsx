import type { ChatListItem, Post, SendMessageBody, UserSummary } from '@kadr/contract';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bookmark, Check, Link2, Share2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { api, errorMessage } from '../../../shared/api/client.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { messengerKeys } from '../../messenger/api/messenger-keys.ts';
import { mediaStrings } from '../strings.ts';
import styles from './ShareSheet.module.css';

const s = mediaStrings.share;

/** One place a post can be sent: a chat of the list, a person found by search, or one's favorites. */
interface Destination {
  key: string;
  name: string;
  avatarUrl: string | null;
  /** «Группа», «Канал», a person's @username; nothing for a personal chat. */
  note: string | null;
  favorites: boolean;
  body: Pick<SendMessageBody, 'other_user_id' | 'group_id' | 'channel_id'>;
}

const personKey = (userId: number) => `personal:${userId}`;

/** A chat of the list as a destination: a personal chat by the peer, a group or channel by its id. */
function fromChat(chat: ChatListItem, ownId: number): Destination {
  const base = { name: chat.username, avatarUrl: chat.avatar_thumbnail_url ?? chat.avatar_url };
  if (chat.type === 'group')
    return {
      ...base,
      key: `group:${chat.user_id}`,
      note: s.group,
      favorites: false,
      body: { group_id: chat.group_id ?? chat.user_id },
    };
  if (chat.type === 'channel')
    return {
      ...base,
      key: `channel:${chat.user_id}`,
      note: s.channel,
      favorites: false,
      body: { channel_id: chat.channel_id ?? chat.user_id },
    };
  if (chat.is_favorites) return favoritesOf(ownId);
  return {
    ...base,
    key: personKey(chat.user_id),
    note: null,
    favorites: false,
    body: { other_user_id: chat.user_id },
  };
}

/** Favorites are always offered, even before anything was saved there (sending to oneself saves). */
const favoritesOf = (ownId: number): Destination => ({
  key: personKey(ownId),
  name: s.favorites,
  avatarUrl: null,
  note: null,
  favorites: true,
  body: { other_user_id: ownId },
});

function fromPerson(user: UserSummary): Destination {
  return {
    key: personKey(user.id),
    name: user.name,
    avatarUrl: user.avatar_thumbnail_url ?? user.avatar_url,
    note: `@${user.username}`,
    favorites: false,
    body: { other_user_id: user.id },
  };
}

const SEARCH_DEBOUNCE_MS = 300;

export const postUrl = (postId: number) => `${window.location.origin}/media/post/${postId}`;

interface Props {
  post: Post;
  onClose: () => void;
  /** Marks the post reposted (the queued repost action); called once something was sent. */
  onReposted: () => void;
  onUndoRepost: () => void;
}

/**
 * Repost (forward): the post goes to the chosen chats as its link, which the messenger shows as a post
 * card; an optional comment goes first. The server decides who may write where; its refusal is shown
 * here per chat. Copy link and the system share sheet stay.
 */
export function ShareSheet({ post, onClose, onReposted, onUndoRepost }: Props) {
  const queryClient = useQueryClient();
  const chats = useQuery({
    queryKey: [...messengerKeys.chats(), 'share'],
    queryFn: ({ signal }) => api.call(messengerEndpoints.chats, { signal }),
    staleTime: 30_000,
  });
  const me = useCurrentUser();
  const ownId = me?.id ?? 0;
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const people = useQuery({
    queryKey: ['user-search', q],
    queryFn: ({ signal }) => api.call(profileEndpoints.search, { query: { q }, signal }),
    enabled: q !== '',
    staleTime: 30_000,
  });
  /** What is ticked, kept by key with its destination, so a person found by one search stays chosen. */
  const [chosen, setChosen] = useState<ReadonlyMap<string, Destination>>(new Map());
  const [comment, setComment] = useState('');
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [sent, setSent] = useState(false);
  const link = postUrl(post.id);
  const list = useMemo(() => {
    const needle = q.toLocaleLowerCase('ru');
    const fromChats = (chats.data?.chats ?? [])
      .map((chat) => fromChat(chat, ownId))
      .filter((d) => !needle || d.name.toLocaleLowerCase('ru').includes(needle));
    const all = new Map<string, Destination>();
    if (!needle || s.favorites.toLocaleLowerCase('ru').includes(needle))
      all.set(personKey(ownId), favoritesOf(ownId));
    for (const d of fromChats) if (!all.has(d.key)) all.set(d.key, d);
    for (const user of people.data?.users ?? []) {
      const d = fromPerson(user);
      if (user.id !== ownId && !all.has(d.key)) all.set(d.key, d);
    }
    return [...all.values()];
  }, [chats.data, people.data, q, ownId]);

  const toggle = (destination: Destination) =>
    setChosen((current) => {
      const next = new Map(current);
      if (next.has(destination.key)) next.delete(destination.key);
      else next.set(destination.key, destination);
      return next;
    });

  const send = async () => {
    const targets = [...chosen.values()];
    if (targets.length === 0) return;
    setSending(true);
    setErrors([]);
    setSent(false);
    const content = comment.trim() ? `${comment.trim()}\n\n${link}` : link;
    const results = await Promise.allSettled(
      targets.map((destination) =>
        api.call(messengerEndpoints.send, {
          body: {
            ...destination.body,
            content,
            temp_id: `share-${post.id}-${destination.key.replace(':', '-')}-${Date.now()}`,
          },
        }),
      ),
    );
    setSending(false);
    const failed: string[] = [];
    const delivered = new Set<string>();
    results.forEach((result, i) => {
      const destination = targets[i];
      if (!destination) return;
      if (result.status === 'rejected') failed.push(s.failed(destination.name, errorMessage(result.reason)));
      else delivered.add(destination.key);
    });
    void queryClient.invalidateQueries({ queryKey: messengerKeys.all });
    if (delivered.size > 0) {
      if (!post.is_reposted) onReposted();
      setSent(true);
      setComment('');
      setChosen((current) => new Map([...current].filter(([key]) => !delivered.has(key))));
    }
    setErrors(failed);
    if (failed.length === 0) onClose();
    if (failed.length === 0 && delivered.size > 0) showToast(s.sent);
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      showToast(s.copied);
    } catch {
      showToast(link);
    }
  };

  const systemShare = async () => {
    try {
      await navigator.share({ url: link, title: mediaStrings.post(post.user.username) });
    } catch {
      // Cancelled by the user: nothing to do.
    }
  };

  let chatList: React.ReactNode;
  if (chats.isPending) chatList = <p className={styles.note}>{mediaStrings.loading}</p>;
  else if (chats.isError) chatList = <p className={styles.note}>{s.loadError}</p>;
  else
    chatList = (
      <>
        <ul className={styles.chats} aria-label={s.chats}>
          {list.map((destination) => {
            const on = chosen.has(destination.key);
            return (
              <li key={destination.key}>
                <label className={styles.chat} data-checked={on}>
                  <input type="checkbox" checked={on} onChange={() => toggle(destination)} />
                  {destination.favorites ? (
                    <span className={styles.favoritesIcon} aria-hidden="true">
                      <Bookmark size={18} />
                    </span>
                  ) : (
                    <Avatar name={destination.name} url={destination.avatarUrl} size={36} alt="" />
                  )}
                  <span className={styles.chatName}>
                    {destination.name}
                    {destination.note ? <small> {destination.note}</small> : null}
                  </span>
                  <span className={styles.tick} aria-hidden="true">
                    {on ? <Check size={16} /> : null}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
        {q !== '' && people.isFetching ? <p className={styles.note}>{mediaStrings.loading}</p> : null}
        {q === '' && (chats.data?.chats ?? []).filter((c) => !c.is_favorites).length === 0 ? (
          <p className={styles.note}>{s.findPeopleHint}</p>
        ) : null}
        {q !== '' && !people.isFetching && list.length === 0 ? (
          <p className={styles.note}>{s.nobody}</p>
        ) : null}
      </>
    );

  return createPortal(
    <Sheet title={s.title} onClose={onClose} locked={sending}>
      <div className={styles.body}>
        <h3 className={styles.heading}>{s.chats}</h3>
        <input
          type="search"
          className={styles.search}
          value={text}
          placeholder={s.searchPeople}
          aria-label={s.searchPeople}
          onChange={(event) => setText(event.target.value)}
        />
        {chatList}
        <label className={styles.commentLabel}>
          <span>{s.comment}</span>
          <textarea
            className={styles.comment}
            value={comment}
            maxLength={1000}
            rows={2}
            placeholder={s.commentPlaceholder}
            onChange={(event) => setComment(event.target.value)}
          />
        </label>
        {sent ? (
          <p className={styles.note} role="status">
            {s.sent}
          </p>
        ) : null}
        {errors.length > 0 ? (
          <div className={styles.errors} role="alert">
            {errors.map((error) => (
              <p key={error}>{error}</p>
            ))}
          </div>
        ) : null}
        <button
          type="button"
          className={styles.send}
          disabled={chosen.size === 0 || sending}
          onClick={() => void send()}
        >
          {sending ? s.sending : s.send(chosen.size)}
        </button>
        <div className={styles.row}>
          <button type="button" className={styles.secondary} onClick={() => void copy()}>
            <Link2 size={18} aria-hidden="true" /> {s.copyLink}
          </button>
          {typeof navigator.share === 'function' ? (
            <button type="button" className={styles.secondary} onClick={() => void systemShare()}>
              <Share2 size={18} aria-hidden="true" /> {s.shareVia}
            </button>
          ) : null}
          {post.is_reposted ? (
            <button
              type="button"
              className={styles.secondary}
              onClick={() => {
                onUndoRepost();
                onClose();
              }}
            >
              {s.undoRepost}
            </button>
          ) : null}
        </div>
      </div>
    </Sheet>,
    document.body,
  );
}
