import type { MessageAttachment } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { Mic, X } from 'lucide-react';
import {
  type ClipboardEvent,
  type KeyboardEvent,
  type PointerEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { errorMessage } from '../../../shared/api/client.ts';
import { Icon } from '../../../shared/ui/Icon.tsx';
import { useSetting } from '../../settings/api/settings-queries.ts';
import { messengerApi } from '../api/messenger-api.ts';
import { useAttachments } from '../hooks/use-attachments.ts';
import { formatVoiceTime, useVoiceRecorder } from '../hooks/use-voice-recorder.ts';
import { canSend, enterAction, inputHeight, isMobileInput, pastedFiles } from '../lib/input-rules.ts';
import { COUNTER_FROM } from '../lib/split-message.ts';
import { useDrafts } from '../store/drafts.ts';
import type { EditingMessage } from '../store/messenger-ui.ts';
import { messengerStrings } from '../strings.ts';
import styles from './MessageInput.module.css';
import { chatStrings } from './strings.ts';

interface Props {
  disabled: boolean;
  /** Why one may not write here (the peer's privacy, a block): shown in the disabled field. */
  disabledReason?: string | null;
  /** The chat's key (`peerIdOf`): its unsent text is kept on the device as a draft. */
  draftKey?: number | null;
  editing: EditingMessage | null;
  onSend: (text: string, files: MessageAttachment[]) => void;
  onSaveEdit: (id: number, text: string) => void;
  onCancelEdit: () => void;
  onTyping: () => void;
}

/**
 * The message field (spec §5): Enter follows the user's "Enter sends" setting on desktop and breaks the line
 * on mobile; grows to 150 px; pasted files attach.
 */
export function MessageInput({
  disabled,
  disabledReason = null,
  draftKey = null,
  editing,
  onSend,
  onSaveEdit,
  onCancelEdit,
  onTyping,
}: Props) {
  const draft = useDrafts((s) => (draftKey === null ? '' : (s.drafts[draftKey] ?? '')));
  const setDraft = useDrafts((s) => s.setDraft);
  const [text, setTextState] = useState(draft);
  const setText = useCallback(
    (value: string, keep = true) => {
      setTextState(value);
      if (keep && draftKey !== null) setDraft(draftKey, value);
    },
    [draftKey, setDraft],
  );
  // A draft read from the device after the field was shown (a reload): put it in while nothing was typed.
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current && draft && !editing) setTextState(draft);
  }, [draft, editing]);
  const enterSends = useSetting((s) => s.chat.enter_sends, true);
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const attachments = useAttachments();
  const [voiceNote, setVoiceNote] = useState<string | null>(null);
  const [voiceSending, setVoiceSending] = useState(false);
  const slide = useRef<{ x: number; pointerId: number } | null>(null);
  const sendRef = useRef(onSend);
  sendRef.current = onSend;
  const onVoiceError = useCallback(() => setVoiceNote(messengerStrings.voice.noMicrophone), []);
  const [lastVoiceMs, setLastVoiceMs] = useState<number | null>(null);
  const recorder = useVoiceRecorder((file, durationMs) => {
    setLastVoiceMs(Math.round(durationMs));
    // Uploaded at once (the outbox persists attachment ids only), then sent like any attachment.
    setVoiceSending(true);
    messengerApi
      .uploadAttachments([file], { voice: true })
      .then(({ files }) => sendRef.current('', files))
      .catch((error: unknown) => setVoiceNote(errorMessage(error)))
      .finally(() => setVoiceSending(false));
  }, onVoiceError);
  const recording = recorder.state.phase !== 'idle';

  /** Hold to record; sliding the finger left by a fifth of the screen (at least 80 px) throws it away. */
  const voiceHandlers = {
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      if (event.button !== 0) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture?.(event.pointerId);
      slide.current = { x: event.clientX, pointerId: event.pointerId };
      setVoiceNote(null);
      void recorder.start();
    },
    onPointerMove: (event: PointerEvent<HTMLButtonElement>) => {
      const s = slide.current;
      if (!s || s.pointerId !== event.pointerId) return;
      if (s.x - event.clientX > Math.max(80, window.innerWidth / 5)) {
        slide.current = null;
        recorder.stop(false);
        setVoiceNote(messengerStrings.voice.cancelled);
      }
    },
    onPointerUp: (event: PointerEvent<HTMLButtonElement>) => {
      if (slide.current?.pointerId !== event.pointerId) return;
      slide.current = null;
      recorder.stop(true);
    },
    onPointerCancel: () => {
      slide.current = null;
      recorder.stop(false);
    },
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
      if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) {
        event.preventDefault();
        setVoiceNote(null);
        void recorder.start();
      } else if (event.key === 'Escape') recorder.stop(false);
    },
    onKeyUp: (event: KeyboardEvent<HTMLButtonElement>) => {
      if (event.key === ' ' || event.key === 'Enter') recorder.stop(true);
    },
    onContextMenu: (event: React.MouseEvent) => event.preventDefault(),
  };

  // Editing fills the input with the message; cancelling clears it (spec §4.11) and brings the draft back.
  const wasEditing = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when editing starts or ends, not per draft change.
  useEffect(() => {
    if (editing) {
      wasEditing.current = true;
      setText(editing.content, false);
      areaRef.current?.focus();
    } else if (wasEditing.current) {
      wasEditing.current = false;
      setText(draft, false);
    }
  }, [editing]);

  // Reading scrollHeight forces a layout: only when what sets the height changed (the text, the placeholder
  // while disabled, being shown again after a recording), not on every render of the chat.
  useLayoutEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    // Empty and enabled, the one-line placeholder fits the CSS height: nothing to measure (a chat opens
    // without a forced layout of the whole page).
    if (!text && !disabled && !recording) {
      area.style.height = '';
      return;
    }
    area.style.height = 'auto';
    area.style.height = `${inputHeight(area.scrollHeight)}px`;
  }, [text, recording, disabled]);

  const length = text.trim().length;
  // An edit cannot be split: past the limit it cannot be saved. A new message past it goes as several.
  const overLimit = editing !== null && length > Limits.messageContent;
  const sendable =
    !disabled &&
    !overLimit &&
    !attachments.uploading &&
    canSend(text, attachments.ready.length > 0 && !editing, true);
  const parts = editing ? 1 : Math.max(1, Math.ceil(length / Limits.messageContent));

  const submit = () => {
    if (!sendable) return;
    if (editing) {
      if (text.trim()) onSaveEdit(editing.id, text.trim());
      return;
    }
    onSend(text.trim(), attachments.ready);
    typed.current = false;
    setText('');
    attachments.clear();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && editing) {
      event.preventDefault();
      onCancelEdit();
      return;
    }
    const action = enterAction(
      {
        key: event.key,
        shiftKey: event.shiftKey,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        isComposing: event.nativeEvent.isComposing,
      },
      isMobileInput(navigator.userAgent, window.innerWidth),
      enterSends,
    );
    if (action === 'send') {
      event.preventDefault();
      submit();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = pastedFiles(event.clipboardData.items);
    if (files.length === 0 || editing) return;
    event.preventDefault();
    attachments.add(files);
  };

  return (
    <div className={styles.wrap}>
      {editing ? (
        <div className={styles.editBar}>
          <span>{messengerStrings.editing}</span>
          <button
            type="button"
            className={styles.iconButton}
            onClick={onCancelEdit}
            aria-label={messengerStrings.cancelEdit}
          >
            <X size={16} aria-hidden />
          </button>
        </div>
      ) : null}
      {attachments.items.length > 0 ? (
        <ul className={styles.attachments}>
          {attachments.items.map((item) => (
            <li key={item.key} className={styles.chip} data-state={item.status}>
              <span>
                {item.status === 'uploading'
                  ? messengerStrings.uploading
                  : item.status === 'failed'
                    ? `${messengerStrings.uploadFailed}: ${item.error}`
                    : item.name}
              </span>
              <button
                type="button"
                className={styles.iconButton}
                onClick={() => attachments.remove(item.key)}
                aria-label={messengerStrings.removeAttachment(item.name)}
              >
                <X size={16} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {length >= COUNTER_FROM ? (
        <p
          className={`${styles.counter} ${length > Limits.messageContent ? styles.counterOver : ''}`}
          data-testid="length-counter"
          aria-live="polite"
        >
          {length <= Limits.messageContent
            ? chatStrings.charsLeft(Limits.messageContent - length)
            : editing
              ? chatStrings.editTooLong(length - Limits.messageContent)
              : chatStrings.willSplit(parts)}
        </p>
      ) : null}
      {voiceNote || voiceSending ? (
        <p className={styles.voiceNote} role="status">
          {voiceSending ? messengerStrings.voice.sending : voiceNote}
        </p>
      ) : null}
      <div className={styles.row}>
        {recording ? (
          <div className={styles.recording} data-testid="voice-recording">
            <span className={styles.recDot} aria-hidden="true" />
            <span
              className={styles.recTime}
              data-testid="voice-timer"
              data-elapsed-ms={
                recorder.state.phase === 'recording' ? Math.round(recorder.state.elapsedMs) : 0
              }
            >
              {formatVoiceTime(recorder.state.phase === 'recording' ? recorder.state.elapsedMs / 1000 : 0)}
            </span>
            <span className={styles.recHint}>‹ {messengerStrings.voice.slideToCancel}</span>
          </div>
        ) : null}
        <button
          type="button"
          className={styles.iconButton}
          hidden={recording}
          aria-label={messengerStrings.attach}
          disabled={disabled || editing !== null}
          onClick={() => fileRef.current?.click()}
        >
          <Icon name="plus" size={22} />
        </button>
        <input
          ref={fileRef}
          type="file"
          multiple
          hidden
          aria-label={messengerStrings.attach}
          onChange={(event) => {
            attachments.add(Array.from(event.currentTarget.files ?? []));
            event.currentTarget.value = '';
          }}
        />
        <textarea
          ref={areaRef}
          hidden={recording}
          className={styles.area}
          rows={1}
          value={text}
          disabled={disabled}
          placeholder={
            disabled
              ? (disabledReason ?? messengerStrings.chatUnavailable)
              : messengerStrings.inputPlaceholder
          }
          aria-label={messengerStrings.inputPlaceholder}
          onChange={(event) => {
            const value = event.currentTarget.value;
            typed.current = true;
            // An edit is not a draft, and it does not tell the peer that one is typing a new message.
            setText(value, !editing);
            if (value && !editing) onTyping();
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {editing ? null : (
          <button
            type="button"
            className={`${styles.mic} ${recording ? styles.micOn : ''}`}
            aria-label={recording ? messengerStrings.voice.recording : messengerStrings.voice.record}
            aria-pressed={recording}
            data-testid="voice-record"
            data-recorded-ms={lastVoiceMs ?? undefined}
            disabled={disabled || voiceSending}
            {...voiceHandlers}
          >
            <Mic size={22} aria-hidden="true" />
          </button>
        )}
        <button
          type="button"
          className={styles.send}
          hidden={recording}
          disabled={!sendable}
          onClick={submit}
        >
          {editing ? messengerStrings.save : messengerStrings.send}
        </button>
      </div>
    </div>
  );
}
