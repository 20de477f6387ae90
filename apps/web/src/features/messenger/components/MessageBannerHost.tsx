import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { BANNER_MS, useMessageBanner } from '../store/message-banner.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { messengerStrings } from '../strings.ts';
import styles from './MessageBannerHost.module.css';

/**
 * The in-app banner of a new message in a chat not on screen (Telegram's): avatar, name, the start of the
 * text; a tap opens the chat, the cross or time closes it. Shown over every screen of the shell.
 */
export function MessageBannerHost() {
  const banner = useMessageBanner((s) => s.current);
  const dismiss = useMessageBanner((s) => s.dismiss);
  const navigate = useNavigate();
  const openPeerId = useMessengerUi((s) => s.openPeerId);
  // It waits while a finger, the pointer or the keyboard is on it (time to read it, WCAG 2.2.1).
  const [held, setHeld] = useState(false);
  // Gone (opened from the list, replaced): a hold of the last one does not carry over.
  const shownSeq = banner?.seq ?? null;
  useEffect(() => {
    if (shownSeq === null) setHeld(false);
  }, [shownSeq]);

  useEffect(() => {
    if (!banner || held) return;
    const timer = window.setTimeout(dismiss, BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [banner, held, dismiss]);

  // The chat it names was opened meanwhile (from the list): the banner has nothing more to say.
  const shownChat = banner
    ? banner.chat.type === 'personal'
      ? banner.chat.user_id
      : -banner.chat.user_id
    : null;
  useEffect(() => {
    if (shownChat !== null && openPeerId === shownChat) dismiss();
  }, [shownChat, openPeerId, dismiss]);

  if (!banner) return null;
  const open = () => {
    setHeld(false);
    dismiss();
    if (banner.chat.type === 'personal') navigate(`/messenger/${banner.sender.username}`);
    else navigate('/messenger', { state: { openChatKey: banner.chatKey } });
  };
  return (
    <div
      className={styles.banner}
      data-testid="message-banner"
      role="status"
      aria-live="polite"
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <button type="button" className={styles.open} onClick={open}>
        <Avatar name={banner.title} url={banner.sender.avatarUrl} size={40} alt="" />
        <span className={styles.text}>
          <strong>{banner.title}</strong>
          <span>{withEmoji(banner.preview)}</span>
        </span>
      </button>
      <button
        type="button"
        className={styles.close}
        aria-label={messengerStrings.close}
        onClick={() => {
          setHeld(false);
          dismiss();
        }}
      >
        <X size={18} aria-hidden="true" />
      </button>
    </div>
  );
}
