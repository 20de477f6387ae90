import type { ChatListItem, Post, SendMessageBody } from '@kadr/contract';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Link2, Share2 } from 'lucide-react';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { api, errorMessage } from '../../../shared/api/client.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { messengerKeys } from '../../messenger/api/messenger-keys.ts';
import { mediaStrings } from '../strings.ts';
import styles from './ShareSheet.module.css';

const s = mediaStrings.share;

const chatKey = (chat: ChatListItem) => `${chat.type}:${chat.user_id}`;

/** The send body for one chat of the list: a personal chat by the peer, a group or channel by its id. */
function target(chat: ChatListItem): Pick<SendMessageBody, 'other_user_id' | 'group_id' | 'channel_id'> {
  if (chat.type === 'group') return { group_id: chat.group_id ?? chat.user_id };
  if (chat.type === 'channel') return { channel_id: chat.channel_id ?? chat.user_id };
  return { other_user_id: chat.user_id };
}

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
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [comment, setComment] = useState('');
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [sent, setSent] = useState(false);
  const link = postUrl(post.id);
  const list = (chats.data?.chats ?? []).filter((chat) => !chat.is_favorites || chat.last_message);

  const toggle = (key: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const send = async () => {
    const targets = list.filter((chat) => chosen.has(chatKey(chat)));
    if (targets.length === 0) return;
    setSending(true);
    setErrors([]);
    setSent(false);
    const text = comment.trim() ? `${comment.trim()}\n\n${link}` : link;
    const results = await Promise.allSettled(
      targets.map((chat) =>
        api.call(messengerEndpoints.send, {
          body: {
            ...target(chat),
            content: text,
            temp_id: `share-${post.id}-${chatKey(chat).replace(':', '-')}-${Date.now()}`,
          },
        }),
      ),
    );
    setSending(false);
    const failed: string[] = [];
    const delivered = new Set<string>();
    results.forEach((result, i) => {
      const chat = targets[i];
      if (!chat) return;
      if (result.status === 'rejected') failed.push(s.failed(chat.username, errorMessage(result.reason)));
      else delivered.add(chatKey(chat));
    });
    void queryClient.invalidateQueries({ queryKey: messengerKeys.all });
    if (delivered.size > 0) {
      if (!post.is_reposted) onReposted();
      setSent(true);
      setComment('');
      setChosen((current) => new Set([...current].filter((key) => !delivered.has(key))));
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
  else if (list.length === 0) chatList = <p className={styles.note}>{s.noChats}</p>;
  else
    chatList = (
      <ul className={styles.chats} aria-label={s.chats}>
        {list.map((chat) => {
          const key = chatKey(chat);
          const on = chosen.has(key);
          const kind = chat.type === 'group' ? s.group : chat.type === 'channel' ? s.channel : null;
          return (
            <li key={key}>
              <label className={styles.chat} data-checked={on}>
                <input type="checkbox" checked={on} onChange={() => toggle(key)} />
                <Avatar name={chat.username} url={chat.avatar_thumbnail_url ?? chat.avatar_url} size={36} />
                <span className={styles.chatName}>
                  {chat.is_favorites ? s.favorites : chat.username}
                  {kind ? <small>{kind}</small> : null}
                </span>
                <span className={styles.tick} aria-hidden="true">
                  {on ? <Check size={16} /> : null}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
    );

  return createPortal(
    <Sheet title={s.title} onClose={onClose} locked={sending}>
      <div className={styles.body}>
        <h3 className={styles.heading}>{s.chats}</h3>
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
