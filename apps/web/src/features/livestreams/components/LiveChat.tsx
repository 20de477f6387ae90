import type { LiveChatMessage } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { EllipsisVertical, Send, Timer } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, type MouseEvent, useEffect, useRef, useState } from 'react';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { PopupMenu, type PopupMenuItem } from '../../../shared/ui/PopupMenu.tsx';
import { livestreamsStrings as t } from '../strings.ts';
import styles from './LiveStream.module.css';

/** Slow-mode choices the host is offered (seconds; 0 is off). */
export const SLOW_MODE_CHOICES = [0, 10, 30, 60] as const;

export interface LiveChatModeration {
  /** The stream's host (never restricted). */
  hostId: number;
  meId: number;
  onDelete(line: LiveChatMessage): void;
  onMute(line: LiveChatMessage): void;
  onBan(line: LiveChatMessage): void;
}

/**
 * The stream's chat: only lines the server sent, newest at the bottom; Enter sends (spec §5), Shift+Enter is
 * a new line. A moderator opens a line's menu to delete it, mute or ban its author; the host sets slow mode.
 */
export function LiveChat({
  messages,
  onSend,
  disabled,
  muted,
  slowModeSeconds,
  moderation,
  onSlowMode,
  meId,
  onReport,
}: {
  messages: readonly LiveChatMessage[];
  /** Resolves to the server's refusal text, or null once it took the line. */
  onSend: (content: string) => Promise<string | null>;
  disabled?: boolean;
  muted?: boolean;
  slowModeSeconds: number;
  /** Given to the host and moderator guests. */
  moderation?: LiveChatModeration | null;
  /** Given to the host only. */
  onSlowMode?: ((seconds: number) => void) | null;
  /** The signed-in viewer (their own lines cannot be reported). */
  meId?: number | null;
  /** Reports a line to the moderators; offered on everyone else's lines. */
  onReport?: ((line: LiveChatMessage) => void) | null;
}) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [menu, setMenu] = useState<{ line: LiveChatMessage; at: { x: number; y: number } } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const count = messages.length;

  useEffect(() => {
    const el = list.current;
    if (count > 0 && el) el.scrollTop = el.scrollHeight;
  }, [count]);

  const send = async () => {
    const text = draft.trim();
    if (!text || text.length > Limits.liveChatMessage || sending) return;
    setSending(true);
    setError(null);
    const refused = await onSend(text);
    setSending(false);
    // A refused line stays in the box, so nothing typed is lost.
    if (refused) setError(refused);
    else setDraft('');
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };
  const openMenu = (line: LiveChatMessage, e: MouseEvent<HTMLButtonElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    setMenu({ line, at: { x: box.left - 180, y: box.bottom } });
  };

  const canReport = (line: LiveChatMessage) => !!onReport && meId != null && line.sender_id !== meId;
  const menuItems = (line: LiveChatMessage): PopupMenuItem[] => {
    const items: PopupMenuItem[] = [];
    if (moderation) {
      items.push({
        id: 'delete',
        label: t.deleteLine,
        danger: true,
        onSelect: () => moderation.onDelete(line),
      });
      if (line.sender_id !== moderation.hostId && line.sender_id !== moderation.meId)
        items.push(
          { id: 'mute', label: t.muteUser, onSelect: () => moderation.onMute(line) },
          { id: 'ban', label: t.banUser, danger: true, onSelect: () => moderation.onBan(line) },
        );
    }
    if (onReport && canReport(line))
      items.push({ id: 'report', label: t.reportLine, onSelect: () => onReport(line) });
    return items;
  };

  const locked = disabled || muted;
  return (
    <section className={styles.chat} aria-label={t.chatLabel}>
      <ol ref={list} className={styles.chatList} aria-live="polite" data-testid="live-chat">
        {messages.map((m) => (
          <li key={m.id} className={styles.chatItem} data-line-id={m.id}>
            <span className={styles.chatText}>
              <span className={styles.chatAuthor} data-testid="live-chat-author">
                {m.sender_name}
              </span>{' '}
              <span>{withEmoji(m.content)}</span>
            </span>
            {(moderation || canReport(m)) && (
              <button
                type="button"
                className={styles.lineMenu}
                aria-label={t.lineActions(m.sender_name)}
                aria-haspopup="menu"
                onClick={(e) => openMenu(m, e)}
              >
                <EllipsisVertical size={16} aria-hidden />
              </button>
            )}
          </li>
        ))}
      </ol>
      {menu && (
        <PopupMenu
          label={t.lineActions(menu.line.sender_name)}
          at={menu.at}
          items={menuItems(menu.line).map((item) => ({
            ...item,
            onSelect: () => {
              setMenu(null);
              item.onSelect();
            },
          }))}
          onClose={() => setMenu(null)}
        />
      )}
      {onSlowMode ? (
        <label className={styles.slowMode}>
          <Timer size={14} aria-hidden /> {t.slowModeLabel}
          <select
            value={slowModeSeconds}
            onChange={(e) => onSlowMode(Number(e.target.value))}
            data-testid="live-slow-mode"
          >
            {SLOW_MODE_CHOICES.map((s) => (
              <option key={s} value={s}>
                {s === 0 ? t.slowModeOff : t.slowModeOption(s)}
              </option>
            ))}
          </select>
        </label>
      ) : (
        slowModeSeconds > 0 && (
          <p className={styles.muted}>
            <Timer size={14} aria-hidden /> {t.slowModeNotice(slowModeSeconds)}
          </p>
        )
      )}
      {(error || muted) && (
        <p className={styles.error} role="alert" data-testid="live-chat-error">
          {muted ? t.chatMuted : error}
        </p>
      )}
      <form className={styles.chatForm} onSubmit={onSubmit}>
        <textarea
          className={styles.chatInput}
          rows={1}
          value={draft}
          maxLength={Limits.liveChatMessage}
          placeholder={muted ? t.chatMuted : t.chatPlaceholder}
          aria-label={t.chatPlaceholder}
          disabled={locked}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          className={styles.iconButton}
          aria-label={t.send}
          disabled={locked || sending || draft.trim() === ''}
        >
          <Send size={18} aria-hidden />
        </button>
      </form>
    </section>
  );
}
