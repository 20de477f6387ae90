import type { ChatListItem, ChatsResponse, Me, Message, MessageAttachment } from '@kadr/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Reply, X } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../shared/api/client.ts';
import { PopupMenu, type PopupMenuItem } from '../../../shared/ui/PopupMenu.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { openReport } from '../../moderation/feature.ts';
import { settingsStrings } from '../../settings/strings.ts';
import { chatRefOf, unreadOf } from '../api/chats-cache.ts';
import { messengerKeys } from '../api/messenger-keys.ts';
import {
  useConversationQuery,
  useDeleteChat,
  useLoadOlder,
  useMarkRead,
  useTogglePin,
} from '../api/messenger-queries.ts';
import type { ChatMediaState } from '../hooks/use-chat-media.ts';
import { useMessageActions } from '../hooks/use-message-actions.ts';
import { useMessageJump } from '../hooks/use-message-jump.ts';
import { useOutbox, useOutboxEntries } from '../hooks/use-outbox.ts';
import { useTypingEmitter } from '../hooks/use-typing-emitter.ts';
import { chatKey, unreadElsewhere } from '../lib/chat-order.ts';
import { type DisplayMessage, displayMessages, favoritesStatus } from '../lib/message-status.ts';
import { outgoingEntries } from '../lib/outgoing.ts';
import { PostCardChat } from '../lib/post-card-context.ts';
import { useMessengerUi } from '../store/messenger-ui.ts';
import { useSendRefusals } from '../store/send-refusals.ts';
import { messengerStrings } from '../strings.ts';
import { ChatHeader } from './ChatHeader.tsx';
import { ChatMediaSheet } from './ChatMediaSheet.tsx';
import styles from './ChatWindow.module.css';
import { DeleteForEveryone } from './DeleteForEveryone.tsx';
import { ForwardDialog } from './ForwardDialog.tsx';
import { MediaViewer } from './MediaViewer.tsx';
import { MessageInput } from './MessageInput.tsx';
import { MessageList } from './MessageList.tsx';
import { PinnedBar } from './PinnedBar.tsx';
import { ProfilePanel } from './ProfilePanel.tsx';
import { chatStrings } from './strings.ts';

interface Props {
  chat: ChatListItem;
  me: Me;
  chats: readonly ChatListItem[];
  showBack: boolean;
  onClose: () => void;
  /** The first page has loaded (or failed): the selection is complete. */
  onReady: () => void;
}

export function ChatWindow({ chat, me, chats, showBack, onClose, onReady }: Props) {
  const navigate = useNavigate();
  const peerId = chat.is_favorites ? me.id : chat.user_id;
  const ref = chatRefOf(chat);
  const conversation = useConversationQuery(peerId);
  const older = useLoadOlder(peerId);
  const outbox = useOutbox();
  const entries = useOutboxEntries();
  const markRead = useMarkRead();
  const queryClient = useQueryClient();
  const togglePin = useTogglePin();
  const deleteChat = useDeleteChat(me.id);
  const editing = useMessengerUi((s) => s.editing);
  const setEditing = useMessengerUi((s) => s.setEditing);
  const setOpenPeerId = useMessengerUi((s) => s.setOpenPeerId);
  const profileOpen = useMessengerUi((s) => s.compactProfileOpen);
  const setProfileOpen = useMessengerUi((s) => s.setCompactProfileOpen);
  const setViewerOpen = useMessengerUi((s) => s.setMediaViewerOpen);
  const actions = useMessageActions(chat, me);
  const typing = useTypingEmitter(peerId, !chat.is_favorites);
  const [messageMenu, setMessageMenu] = useState<{
    item: DisplayMessage;
    at: { x: number; y: number };
  } | null>(null);
  const [chatMenu, setChatMenu] = useState<{ x: number; y: number } | null>(null);
  const [replyTo, setReplyTo] = useState<Message | null>(null);

  useEffect(() => {
    setOpenPeerId(peerId);
    return () => {
      setOpenPeerId(null);
      setEditing(null);
    };
  }, [peerId, setOpenPeerId, setEditing]);

  const settled = !conversation.isPending;
  useEffect(() => {
    if (settled) onReady();
  }, [settled, onReady]);

  const messages = conversation.data?.messages;
  const jumper = useMessageJump(chatKey(chat), messages);
  const windowed = jumper.view;
  const items = useMemo(() => {
    // A window around a found message shows history only (what is being sent goes at the newest end).
    const shown = windowed
      ? displayMessages(windowed.messages, [], peerId, me)
      : displayMessages(messages ?? [], entries, peerId, me);
    // Saved messages have no recipient: no receipt ticks (only pending and failed).
    return chat.is_favorites ? shown.map((i) => ({ ...i, status: favoritesStatus(i.status) })) : shown;
  }, [windowed, messages, entries, peerId, me, chat.is_favorites]);

  // Opening the chat, and every incoming message while it is open, marks it read (read receipts).
  // The newest incoming message not read yet (is_read is the reader's own state for incoming ones).
  const lastIncoming = messages?.findLast((m) => m.sender_id !== me.id && !m.is_read)?.id ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs per new incoming message, not per render.
  useEffect(() => {
    if (!settled || conversation.isError) return;
    // The count as the cache holds it, not as `chat` does: the view renders this window from a deferred copy
    // of the list, which still counts what the selection has just cleared and read (a second receipt).
    const unread = unreadOf(queryClient.getQueryData<ChatsResponse>(messengerKeys.chats()), ref);
    if (lastIncoming === 0 && unread === 0) return;
    if (document.visibilityState === 'hidden') return;
    markRead(ref, me.id);
  }, [settled, lastIncoming, markRead, me.id, peerId]);

  useEffect(() => {
    setViewerOpen(actions.viewing !== null);
    return () => setViewerOpen(false);
  }, [actions.viewing, setViewerOpen]);

  const refusal = useSendRefusals((s) => s.byPeer[peerId]);
  const unavailable =
    conversation.isError && isApiError(conversation.error) && [403, 404].includes(conversation.error.status);
  // "Can I write here" comes with the chat (the peer's privacy, a block): said before anything is typed,
  // and the field is closed, as Telegram does. A refusal met on sending says the same until a send passes.
  const restriction = conversation.data?.write_restriction?.error ?? refusal ?? null;

  const send = (text: string, files: MessageAttachment[]) => {
    typing.stopped();
    jumper.backToLatest();
    // Over 4,096 characters the text goes as several messages, in order (as Telegram sends it).
    for (const entry of outgoingEntries(
      { owner_id: me.id, other_user_id: peerId },
      text,
      files,
      replyTo?.id ?? null,
    ))
      outbox.enqueue(entry);
    void outbox.flush(me.id);
    setReplyTo(null);
  };

  const chatMenuItems: PopupMenuItem[] = [
    {
      id: 'pin',
      label: chat.is_pinned ? messengerStrings.unpin : messengerStrings.pin,
      onSelect: () => togglePin.mutate(chat),
    },
  ];
  if (chat.type === 'personal' && !chat.is_favorites && chat.profile_username) {
    const username = chat.profile_username;
    chatMenuItems.push({
      id: 'block',
      label: settingsStrings.privacy.block,
      onSelect: () => {
        void import('../../settings/api/settings-queries.ts').then((m) => m.blockUser(username));
      },
    });
    chatMenuItems.push({
      id: 'report',
      label: messengerStrings.report,
      onSelect: () => openReport({ kind: 'user', targetId: chat.user_id }),
    });
  }
  if (!chat.is_favorites) {
    chatMenuItems.push({
      id: 'delete',
      label: messengerStrings.deleteChat,
      danger: true,
      onSelect: () => {
        // biome-ignore lint/suspicious/noAlert: a yes/no confirmation (spec wording); alert() stays banned
        if (!window.confirm(messengerStrings.deleteChatConfirm)) return;
        deleteChat.mutate(chat, { onSuccess: onClose });
      },
    });
  }

  const chatMedia: ChatMediaState = {
    fromChat: true,
    chatId: peerId,
    chatType: chat.type,
    chatName: chat.username,
  };
  const [mediaOpen, setMediaOpen] = useState(false);
  const openPosts = () => navigate('/media', { state: chatMedia });

  let body: React.ReactNode;
  if (conversation.isPending) {
    body = (
      <div className={styles.centered} role="status">
        <Spinner />
        <span>{messengerStrings.loading}</span>
      </div>
    );
  } else if (conversation.isError && !unavailable) {
    body = (
      <div className={styles.centered} role="alert">
        <p>{messengerStrings.loadError}</p>
        <button type="button" className={styles.retry} onClick={() => void conversation.refetch()}>
          {messengerStrings.retry}
        </button>
      </div>
    );
  } else if (items.length === 0) {
    body = (
      <div className={styles.centered}>
        <p>{unavailable ? messengerStrings.chatUnavailable : messengerStrings.noMessages}</p>
      </div>
    );
  } else {
    body = (
      <PostCardChat.Provider value={chatMedia}>
        <MessageList
          items={items}
          ownId={me.id}
          hasMore={windowed ? windowed.hasOlder : (conversation.data?.has_more ?? false)}
          loadingOlder={older.loading}
          label={messengerStrings.conversation(chat.username)}
          onLoadOlder={windowed ? jumper.loadOlder : () => void older.loadOlder()}
          hasNewer={windowed?.hasNewer ?? false}
          onLoadNewer={jumper.loadNewer}
          onBackToLatest={jumper.backToLatest}
          highlightId={jumper.highlightId}
          onJumpTo={(messageId) => void jumper.jump(messageId)}
          onMenu={(item, at) => setMessageMenu({ item, at })}
          onResend={(tempId) => void outbox.resend(tempId)}
          onDiscard={(tempId) => outbox.discard(tempId)}
          onOpenMedia={(item, index) => actions.setViewing(item.message.files[index] ?? null)}
        />
      </PostCardChat.Provider>
    );
  }

  return (
    <div className={styles.window}>
      <section className={styles.chat} aria-label={chat.username}>
        <ChatHeader
          chat={chat}
          showBack={showBack}
          onBack={onClose}
          onToggleProfile={() => setProfileOpen(!profileOpen)}
          onOpenMedia={() => setMediaOpen(true)}
          onMenu={setChatMenu}
          unreadElsewhere={unreadElsewhere(chats, chatKey(chat))}
        />
        {chat.pinned_message ? (
          <PinnedBar
            pinned={chat.pinned_message}
            canUnpin
            onOpen={(id) => void jumper.jump(id)}
            onUnpin={(id) => actions.pin(id, false)}
          />
        ) : null}
        {body}
        {actions.copied ? (
          <p className={styles.notice} role="status">
            {messengerStrings.copied}
          </p>
        ) : null}
        {restriction ? (
          // In the flow, just above the closed field (a floating notice was covered by the field).
          <p className={styles.restriction} role="alert" data-testid="write-restriction">
            {restriction}
          </p>
        ) : null}
        {replyTo && !editing ? (
          <div className={styles.replyBar} data-testid="reply-bar">
            <Reply size={16} aria-hidden="true" />
            <div className={styles.replyText}>
              <strong>{messengerStrings.replyTo(replyTo.sender_name)}</strong>
              <span>{replyTo.content.slice(0, 80)}</span>
            </div>
            <button
              type="button"
              className={styles.replyCancel}
              aria-label={messengerStrings.cancelReply}
              onClick={() => setReplyTo(null)}
            >
              <X size={16} aria-hidden="true" />
            </button>
          </div>
        ) : null}
        <MessageInput
          disabled={unavailable || restriction !== null}
          disabledReason={restriction ? chatStrings.cannotWrite : null}
          draftKey={peerId}
          editing={editing}
          onSend={send}
          onSaveEdit={actions.saveEdit}
          onCancelEdit={() => setEditing(null)}
          onTyping={typing.typing}
        />
      </section>
      {profileOpen && chat.type === 'personal' && !chat.is_favorites ? (
        <ProfilePanel chat={chat} onClose={() => setProfileOpen(false)} />
      ) : null}
      {messageMenu ? (
        <PopupMenu
          label={messengerStrings.messageActions}
          at={messageMenu.at}
          items={
            messageMenu.item.tempId === null
              ? [
                  {
                    id: 'reply',
                    label: messengerStrings.reply,
                    onSelect: () => {
                      setEditing(null);
                      setReplyTo(messageMenu.item.message);
                    },
                  },
                  ...actions.menuItems(messageMenu.item),
                ]
              : actions.menuItems(messageMenu.item)
          }
          onClose={() => setMessageMenu(null)}
        />
      ) : null}
      {chatMenu ? (
        <PopupMenu
          label={messengerStrings.chatActions}
          at={chatMenu}
          items={chatMenuItems}
          onClose={() => setChatMenu(null)}
        />
      ) : null}
      {actions.forwarding ? (
        <ForwardDialog
          chats={chats}
          ownId={me.id}
          onPick={actions.forwardTo}
          onClose={() => actions.setForwarding(null)}
        />
      ) : null}
      {actions.viewing ? (
        <MediaViewer file={actions.viewing} onClose={() => actions.setViewing(null)} />
      ) : null}
      {mediaOpen ? (
        <ChatMediaSheet
          chat={chat}
          ownId={me.id}
          onClose={() => setMediaOpen(false)}
          onOpenPosts={openPosts}
          onView={(file) => {
            setMediaOpen(false);
            actions.setViewing(file);
          }}
        />
      ) : null}
      {actions.confirmDelete ? (
        <DeleteForEveryone
          pending={actions.confirmDelete}
          onConfirm={actions.deleteForEveryone}
          onClose={actions.cancelDelete}
        />
      ) : null}
    </div>
  );
}
