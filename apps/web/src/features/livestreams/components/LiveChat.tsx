import type { LiveChatMessage } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { Send } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { livestreamsStrings as t } from '../strings.ts';
import styles from './LiveStream.module.css';

/** The stream's chat: newest at the bottom; Enter sends (spec §5), Shift+Enter is a new line. */
export function LiveChat({
  messages,
  onSend,
  disabled,
}: {
  messages: readonly LiveChatMessage[];
  onSend: (content: string) => void;
  disabled?: boolean;
}) {
  const [draft, setDraft] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const count = messages.length;

  useEffect(() => {
    if (count > 0) list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [count]);

  const send = () => {
    const text = draft.trim();
    if (!text || text.length > Limits.liveChatMessage) return;
    onSend(text);
    setDraft('');
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  return (
    <section className={styles.chat} aria-label={t.chatLabel}>
      <ol ref={list} className={styles.chatList} aria-live="polite" data-testid="live-chat">
        {messages.map((m) => (
          <li key={`${m.sender_id}:${m.temp_id}`} className={styles.chatItem}>
            <span className={styles.chatAuthor}>{m.sender_name}</span> <span>{m.content}</span>
          </li>
        ))}
      </ol>
      <form className={styles.chatForm} onSubmit={onSubmit}>
        <textarea
          className={styles.chatInput}
          rows={1}
          value={draft}
          maxLength={Limits.liveChatMessage}
          placeholder={t.chatPlaceholder}
          aria-label={t.chatPlaceholder}
          disabled={disabled}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          className={styles.iconButton}
          aria-label={t.send}
          disabled={disabled || draft.trim() === ''}
        >
          <Send size={18} aria-hidden />
        </button>
      </form>
    </section>
  );
}
