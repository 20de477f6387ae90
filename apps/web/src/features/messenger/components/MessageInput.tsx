import type { MessageAttachment } from '@kadr/contract';
import { type ClipboardEvent, type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ru } from '../../../shared/i18n/ru.ts';
import { Icon } from '../../../shared/ui/Icon.tsx';
import { useAttachments } from '../hooks/use-attachments.ts';
import { canSend, enterAction, inputHeight, isMobileInput, pastedFiles } from '../lib/input-rules.ts';
import type { EditingMessage } from '../store/messenger-ui.ts';
import styles from './MessageInput.module.css';

interface Props {
  disabled: boolean;
  editing: EditingMessage | null;
  onSend: (text: string, files: MessageAttachment[]) => void;
  onSaveEdit: (id: number, text: string) => void;
  onCancelEdit: () => void;
  onTyping: () => void;
}

/** The message field (spec §5): Enter/Shift+Enter/mobile rules, grows to 150 px, pasted files attach. */
export function MessageInput({ disabled, editing, onSend, onSaveEdit, onCancelEdit, onTyping }: Props) {
  const [text, setText] = useState('');
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const attachments = useAttachments();

  // Editing fills the input with the message; cancelling clears it (spec §4.11).
  useEffect(() => {
    setText(editing ? editing.content : '');
    if (editing) areaRef.current?.focus();
  }, [editing]);

  useLayoutEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    area.style.height = 'auto';
    area.style.height = `${inputHeight(area.scrollHeight)}px`;
  });

  const sendable =
    !disabled && !attachments.uploading && canSend(text, attachments.ready.length > 0 && !editing, true);

  const submit = () => {
    if (!sendable) return;
    if (editing) {
      if (text.trim()) onSaveEdit(editing.id, text.trim());
      return;
    }
    onSend(text.trim(), attachments.ready);
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
      { key: event.key, shiftKey: event.shiftKey, isComposing: event.nativeEvent.isComposing },
      isMobileInput(navigator.userAgent, window.innerWidth),
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
          <span>{ru.messenger.editing}</span>
          <button
            type="button"
            className={styles.iconButton}
            onClick={onCancelEdit}
            aria-label={ru.messenger.cancelEdit}
          >
            ✕
          </button>
        </div>
      ) : null}
      {attachments.items.length > 0 ? (
        <ul className={styles.attachments}>
          {attachments.items.map((item) => (
            <li key={item.key} className={styles.chip} data-state={item.status}>
              <span>
                {item.status === 'uploading'
                  ? ru.messenger.uploading
                  : item.status === 'failed'
                    ? `${ru.messenger.uploadFailed}: ${item.error}`
                    : item.name}
              </span>
              <button
                type="button"
                className={styles.iconButton}
                onClick={() => attachments.remove(item.key)}
                aria-label={ru.messenger.removeAttachment(item.name)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className={styles.row}>
        <button
          type="button"
          className={styles.iconButton}
          aria-label={ru.messenger.attach}
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
          aria-label={ru.messenger.attach}
          onChange={(event) => {
            attachments.add(Array.from(event.currentTarget.files ?? []));
            event.currentTarget.value = '';
          }}
        />
        <textarea
          ref={areaRef}
          className={styles.area}
          rows={1}
          value={text}
          disabled={disabled}
          placeholder={disabled ? ru.messenger.chatUnavailable : ru.messenger.inputPlaceholder}
          aria-label={ru.messenger.inputPlaceholder}
          onChange={(event) => {
            setText(event.currentTarget.value);
            if (event.currentTarget.value) onTyping();
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <button type="button" className={styles.send} disabled={!sendable} onClick={submit}>
          {editing ? ru.messenger.save : ru.messenger.send}
        </button>
      </div>
    </div>
  );
}
