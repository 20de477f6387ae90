import type { ChatListItem, Me, Message, MessageAttachment } from '@kadr/contract';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { useQueryClient } from '@tanstack/react-query';
import { Images, Info, Reply, X } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, isApiError } from '../../../shared/api/client.ts';
import { ru } from '../../../shared/i18n/ru.ts';
import { useClock } from '../../../shared/lib/use-clock.ts';
import { useOnline } from '../../../shared/lib/use-online.ts';
import { useRealtime } from '../../../shared/realtime/socket.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { PopupMenu } from '../../../shared/ui/PopupMenu.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { writeUnreadCleared } from '../../messenger/api/cache-writes.ts';
import { messengerKeys } from '../../messenger/api/messenger-keys.ts';
import { useChatsQuery } from '../../messenger/api/messenger-queries.ts';
import { BackButton } from '../../messenger/components/ChatHeader.tsx';
import { ChatMediaSheet } from '../../messenger/components/ChatMediaSheet.tsx';
import styles from '../../messenger/components/ChatWindow.module.css';
import { DeleteForEveryone } from '../../messenger/components/DeleteForEveryone.tsx';
import { ForwardDialog } from '../../messenger/components/ForwardDialog.tsx';
import { MediaViewer } from '../../messenger/components/MediaViewer.tsx';
import { MessageInput } from '../../messenger/components/MessageInput.tsx';
import { MessageList } from '../../messenger/components/MessageList.tsx';
import { PinnedBar } from '../../messenger/components/PinnedBar.tsx';
import { useMessageActions } from '../../messenger/hooks/use-message-actions.ts';
import { useMessageJump } from '../../messenger/hooks/use-message-jump.ts';
import { useOutbox, useOutboxEntries } from '../../messenger/hooks/use-outbox.ts';
import { chatKey, unreadElsewhere } from '../../messenger/lib/chat-order.ts';
import { type DisplayMessage, displayMessages } from '../../messenger/lib/message-status.ts';
import { outgoingEntries } from '../../messenger/lib/outgoing.ts';
import { PostCardChat } from '../../messenger/lib/post-card-context.ts';
import { useMessengerUi } from '../../messenger/store/messenger-ui.ts';
import { messengerStrings } from '../../messenger/strings.ts';
import { GroupVoiceBar } from '../../voice/components/GroupVoiceBar.tsx';
import {
  markRoomRead,
  type RoomKind,
  roomRef,
  useChannel,
  useGroup,
  useLoadOlderRoom,
  useRoomMessages,
} from '../api/groups-api.ts';
import { useGroupsUi } from '../store/groups-ui.ts';
import { groupsStrings as S } from '../strings.ts';
import { ChatInfoPanel } from './ChatInfoPanel.tsx';
import g from './groups.module.css';

interface Props {
  chat: ChatListItem & { type: RoomKind };
  me: Me;
  showBack: boolean;
  onClose: () => void;
  onReady: () => void;
}

/** A group or a channel: header with members or typing, history, replies, and the input its role allows. */
export function RoomChatWindow({ chat, me, showBack, onClose, onReady }: Props) {
  const kind = chat.type;
  const id = chat.user_id;
  const outbox = useOutbox();
  const entries = useOutboxEntries();
  const queryClient = useQueryClient();
  const history = useRoomMessages(kind, id);
  const loadOlder = useLoadOlderRoom(kind, id);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const group = useGroup(kind === 'group' ? id : 0, kind === 'group');
  const channel = useChannel(kind === 'channel' ? id : 0, kind === 'channel');
  // A group's owner and admins, and a channel's owner, delete others' messages (the server allows it).
  const moderator =
    kind === 'group'
      ? group.data?.role === 'owner' || group.data?.role === 'admin'
      : channel.data?.role === 'owner';
  const actions = useMessageActions(chat, me, { moderator });
  const chatsQuery = useChatsQuery(me);
  const online = useOnline();
  const editing = useMessengerUi((s) => s.editing);
  const setEditing = useMessengerUi((s) => s.setEditing);
  const setOpenPeerId = useMessengerUi((s) => s.setOpenPeerId);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [menu, setMenu] = useState<{ item: DisplayMessage; at: { x: number; y: number } } | null>(null);
  const [infoOpen, setInfoOpen] = useState(false);
  const [mediaOpen, setMediaOpen] = useState(false);
  const navigate = useNavigate();
  const typing = useGroupsUi((s) => s.typing[id]);
  const typingShown = useClock((now) =>
    kind === 'group' && typing && typing.until > now ? typing.name : null,
  );

  useEffect(() => {
    setOpenPeerId(-id);
    return () => {
      setOpenPeerId(null);
      setEditing(null);
    };
  }, [id, setOpenPeerId, setEditing]);

  const settled = !history.isPending;
  useEffect(() => {
    if (settled) onReady();
  }, [settled, onReady]);

  const messages = history.data?.messages;
  const newest = messages?.at(-1)?.id ?? 0;
  const subscribed = kind === 'group' || chat.channel_data?.is_subscribed !== false;
  // Opening the chat, and each new message while it is open, reads it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs per newest message, not per render.
  useEffect(() => {
    if (!settled || history.isError || !subscribed) return;
    writeUnreadCleared(queryClient, roomRef(kind, id));
    void markRoomRead(kind, id).catch(() => undefined);
  }, [settled, newest, history.isError, kind, id, subscribed, queryClient]);

  // A quote, the pinned bar or a search hit opens the history at that message (a window around it when
  // it is not loaded).
  const jumper = useMessageJump(chatKey(chat), messages);
  const windowed = jumper.view;
  // Messages written offline wait in the shared outbox (keyed by minus the chat id) and are sent once,
  // in order, when the connection returns, like personal ones.
  const items = useMemo(
    () =>
      windowed
        ? displayMessages(windowed.messages, [], -id, me)
        : displayMessages(messages ?? [], entries, -id, me),
    [windowed, messages, entries, id, me],
  );
  const forbidden = history.isError && isApiError(history.error) && [403, 404].includes(history.error.status);

  const send = (text: string, files: MessageAttachment[]) => {
    jumper.backToLatest();
    // Over 4,096 characters the text goes as several messages, in order (as Telegram sends it).
    for (const entry of outgoingEntries(
      { owner_id: me.id, other_user_id: -id, room: { kind, id } },
      text,
      files,
      replyTo?.id ?? null,
    ))
      outbox.enqueue(entry);
    setReplyTo(null);
    void outbox.flush(me.id);
  };

  const emitTyping = () => {
    if (kind === 'group') useRealtime.getState().socket?.emit('typing', { group_id: id, is_typing: true });
  };

  const count =
    kind === 'group' ? (chat.group_data?.memberCount ?? 0) : (chat.channel_data?.subscribers_count ?? 0);
  const status = !online
    ? ru.app.waitingForNetwork
    : typingShown !== null
      ? S.typing(typingShown)
      : kind === 'group'
        ? S.memberCount(count)
        : S.subscriberCount(count);

  let body: React.ReactNode;
  if (history.isPending) {
    body = (
      <div className={styles.centered} role="status">
        <Spinner />
        <span>{S.loading}</span>
      </div>
    );
  } else if (history.isError && !forbidden) {
    body = (
      <div className={styles.centered} role="alert">
        <p>{S.loadError}</p>
      </div>
    );
  } else if (forbidden) {
    body = (
      <div className={styles.centered}>
        <p>{S.notMember}</p>
      </div>
    );
  } else if (items.length === 0) {
    body = (
      <div className={styles.centered}>
        <p>{kind === 'group' ? S.noMessages : S.noPosts}</p>
      </div>
    );
  } else {
    body = (
      <PostCardChat.Provider value={{ fromChat: true, chatId: id, chatType: kind, chatName: chat.username }}>
        <MessageList
          items={items}
          ownId={me.id}
          hasMore={windowed ? windowed.hasOlder : (history.data?.has_more ?? false)}
          loadingOlder={loadingOlder}
          label={chat.username}
          onLoadOlder={() => {
            if (windowed) return jumper.loadOlder();
            if (loadingOlder) return;
            setLoadingOlder(true);
            void loadOlder().finally(() => setLoadingOlder(false));
          }}
          hasNewer={windowed?.hasNewer ?? false}
          onLoadNewer={jumper.loadNewer}
          onBackToLatest={jumper.backToLatest}
          highlightId={jumper.highlightId}
          onMenu={(item, at) => setMenu({ item, at })}
          onResend={(tempId) => void outbox.resend(tempId)}
          onDiscard={(tempId) => outbox.discard(tempId)}
          authors
          onOpenMedia={(item, index) => actions.setViewing(item.message.files[index] ?? null)}
          onJumpTo={(messageId) => void jumper.jump(messageId)}
        />
      </PostCardChat.Provider>
    );
  }

  const canPost = kind === 'group' || chat.channel_data?.can_post === true;
  let input: React.ReactNode;
  if (forbidden) input = null;
  else if (kind === 'channel' && !subscribed)
    input = (
      <div className={g.inputState}>
        <button
          type="button"
          className={g.primary}
          onClick={() =>
            void api
              .call(channelsEndpoints.subscribe, { params: { id } })
              .then(() => queryClient.invalidateQueries({ queryKey: messengerKeys.chats() }))
          }
        >
          {S.subscribe}
        </button>
      </div>
    );
  else if (!canPost) input = <p className={g.inputState}>{S.adminsOnly}</p>;
  else
    input = (
      <>
        {replyTo ? (
          <div className={g.replyBar}>
            <Reply size={16} aria-hidden />
            <div className={g.replyText}>
              <strong>{S.replyTo(replyTo.sender_name)}</strong>
              <span>{replyTo.content.slice(0, 80)}</span>
            </div>
            <button
              type="button"
              className={g.iconButton}
              aria-label={S.cancelReply}
              onClick={() => setReplyTo(null)}
            >
              <X size={16} aria-hidden />
            </button>
          </div>
        ) : null}
        <MessageInput
          disabled={false}
          draftKey={-id}
          editing={editing}
          onSend={send}
          onSaveEdit={actions.saveEdit}
          onCancelEdit={() => setEditing(null)}
          onTyping={emitTyping}
        />
      </>
    );

  return (
    <div className={styles.window}>
      <section className={styles.chat} aria-label={chat.username}>
        <header className={g.header}>
          {showBack ? (
            <BackButton onBack={onClose} unread={unreadElsewhere(chatsQuery.data ?? [], chatKey(chat))} />
          ) : null}
          <Avatar name={chat.username} url={chat.avatar_thumbnail_url ?? chat.avatar_url} size={40} alt="" />
          <div className={g.headerText}>
            <h2 className={g.headerName}>{chat.username}</h2>
            <p className={g.headerStatus} aria-live="polite">
              {status}
            </p>
          </div>
          {kind === 'group' ? (
            <GroupVoiceBar groupId={id} groupName={chat.username} placement="button" />
          ) : null}
          <button
            type="button"
            className={g.iconButton}
            aria-label={S.media}
            onClick={() => setMediaOpen(true)}
          >
            <Images size={20} aria-hidden />
          </button>
          <button
            type="button"
            className={g.iconButton}
            aria-label={S.info}
            aria-expanded={infoOpen}
            onClick={() => setInfoOpen(!infoOpen)}
          >
            <Info size={20} aria-hidden />
          </button>
        </header>
        {kind === 'group' ? (
          <GroupVoiceBar groupId={id} groupName={chat.username} placement="banner" />
        ) : null}
        {chat.pinned_message ? (
          <PinnedBar
            pinned={chat.pinned_message}
            canUnpin={moderator}
            onOpen={(messageId) => void jumper.jump(messageId)}
            onUnpin={(messageId) => actions.pin(messageId, false)}
          />
        ) : null}
        {body}
        {input}
      </section>
      {infoOpen ? (
        <ChatInfoPanel kind={kind} id={id} me={me} onClose={() => setInfoOpen(false)} onGone={onClose} />
      ) : null}
      {menu ? (
        <PopupMenu
          label={messengerStrings.messageActions}
          at={menu.at}
          items={[
            ...(canPost
              ? [{ id: 'reply', label: S.reply, onSelect: () => setReplyTo(menu.item.message) }]
              : []),
            ...actions.menuItems(menu.item),
          ]}
          onClose={() => setMenu(null)}
        />
      ) : null}
      {actions.forwarding ? (
        <ForwardDialog
          chats={chatsQuery.data ?? []}
          ownId={me.id}
          onPick={actions.forwardTo}
          onClose={() => actions.setForwarding(null)}
        />
      ) : null}
      {mediaOpen ? (
        <ChatMediaSheet
          chat={chat}
          ownId={me.id}
          onClose={() => setMediaOpen(false)}
          onOpenPosts={() =>
            navigate('/media', {
              state: { fromChat: true, chatId: id, chatType: kind, chatName: chat.username },
            })
          }
          onView={(file) => {
            setMediaOpen(false);
            actions.setViewing(file);
          }}
        />
      ) : null}
      {actions.viewing ? (
        <MediaViewer file={actions.viewing} onClose={() => actions.setViewing(null)} />
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
