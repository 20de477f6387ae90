import type { ChatListItem } from '@kadr/contract';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { usePageShown } from '../../../app/boot/frame-overlay.ts';
import { useGoBack } from '../../../shared/lib/go-back.ts';
import { useMediaQuery } from '../../../shared/lib/use-media-query.ts';
import { Button } from '../../../shared/ui/Button.tsx';
import { Icon } from '../../../shared/ui/Icon.tsx';
import { PopupMenu, type PopupMenuItem } from '../../../shared/ui/PopupMenu.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { isRoom } from '../../groups/api/groups-api.ts';
import { PublicRoomResults } from '../../groups/components/PublicRoomResults.tsx';
import { registerShellCommand } from '../../shell/lib/shell-commands.ts';
import { useShellUi } from '../../shell/shell-ui-store.ts';
import {
  useChatsQuery,
  useDeleteChat,
  usePrefetchConversation,
  useTogglePin,
} from '../api/messenger-queries.ts';
import { useReducedBadges, useToggleReducedBadges } from '../api/reduced-badges.ts';
import { useChatSelection } from '../hooks/use-chat-selection.ts';
import { useSidebarResize } from '../hooks/use-sidebar-resize.ts';
import { useSwipeClose } from '../hooks/use-swipe-close.ts';
import { useUrlChat } from '../hooks/use-url-chat.ts';
import { chatKey, filterChats } from '../lib/chat-order.ts';
import { chatSwitchDirection, neighbourIndex } from '../lib/selection.ts';
import { SIDEBAR_MAX, SIDEBAR_MIN, useMessengerUi } from '../store/messenger-ui.ts';
import { messengerStrings } from '../strings.ts';
import { ChatList } from './ChatList.tsx';
import { ChatWindow } from './ChatWindow.tsx';
import { MessageSearchResults } from './MessageSearchResults.tsx';
import styles from './MessengerView.module.css';
import { PeopleResults } from './PeopleResults.tsx';
import { chatStrings } from './strings.ts';

const loadRoomChat = () => import('../../groups/components/RoomChatWindow.tsx');
const RoomChatWindow = lazy(() => loadRoomChat().then((m) => ({ default: m.RoomChatWindow })));

/** A group's or channel's window, loaded ahead: a link to a room opens it here (groups/feature.ts). */
export function preloadRoomChat(): Promise<unknown> {
  return loadRoomChat();
}

/** /messenger and /messenger/{username} (spec §2.6): chat list, chat window, profile panel. */
export function MessengerView() {
  usePageShown();
  const me = useCurrentUser();
  const { username } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const chatsQuery = useChatsQuery(me);
  // The list and the open chat render from a deferred copy of the answer. Its arrival is a store update,
  // which React renders at once in one task; deferred, that task only re-renders this view, and the list
  // with the chat window (a cold chat page's longest task: 74 ms unthrottled, 250 ms of blocking time at 4×
  // CPU) follows as a time-sliced render. A new message updates the list the same way, a frame later.
  const chats = useDeferredValue(chatsQuery.data);
  const chatsPending = chats === undefined && (chatsQuery.isPending || chatsQuery.data !== undefined);
  // The chat its URL names starts loading as soon as the list answers (from its boot response, usually there
  // already): the chat window then mounts with its messages in the deferred render, instead of rendering
  // them again a moment later in an urgent task of their own.
  const prefetchConversation = usePrefetchConversation();
  const answered = chatsQuery.data;
  useEffect(() => {
    const named = answered?.find(
      (chat) => chat.type === 'personal' && !chat.is_favorites && chat.profile_username === username,
    );
    if (named) void prefetchConversation(named.user_id);
  }, [answered, username, prefetchConversation]);
  const selection = useChatSelection(me);
  const narrow = useMediaQuery('(max-width: 768px)');
  const wide = useMediaQuery('(min-width: 1025px)');
  const reducedBadges = useReducedBadges();
  const toggleReducedBadges = useToggleReducedBadges();
  const searchFocus = useMessengerUi((s) => s.searchFocusRequest);
  const [query, setQuery] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const resize = useSidebarResize();
  const togglePin = useTogglePin();
  const deleteChat = useDeleteChat(me?.id ?? 0);
  const [chatMenu, setChatMenu] = useState<{ chat: ChatListItem; at: { x: number; y: number } } | null>(null);
  const fromProfile = (location.state as { fromProfile?: string } | null)?.fromProfile;

  const visible = useMemo(() => filterChats(chats ?? [], query), [chats, query]);
  const selected = selection.resolve(chats ?? []);

  // The location is read through a ref so `open` keeps its identity across navigations and the
  // memoised rows do not all re-render on every switch.
  const locationRef = useRef(location);
  locationRef.current = location;
  const { select } = selection;
  const open = useCallback(
    (chat: ChatListItem, draft = false) => {
      if (!select(chat, { draft })) return;
      const target = chat.is_favorites ? null : chat.profile_username;
      const path = target ? `/messenger/${target}` : '/messenger';
      const { pathname, state } = locationRef.current;
      if (pathname !== path) navigate(path, { replace: pathname !== '/messenger', state });
    },
    [select, navigate],
  );

  const { missing } = useUrlChat(username, me, chats, open);

  // A group or channel just created, joined or subscribed to opens once the list carries it.
  const openChatKey = (location.state as { openChatKey?: string } | null)?.openChatKey;
  useEffect(() => {
    if (!openChatKey || !chats) return;
    const chat = chats.find((c) => chatKey(c) === openChatKey);
    if (!chat) return;
    navigate('/messenger', { replace: true, state: null });
    open(chat);
  }, [openChatKey, chats, open, navigate]);

  const close = useCallback(() => {
    selection.clear();
    // Going back returns to the profile the chat was opened from, otherwise to the previous page or
    // /messenger (spec §2.6) — never out of the app when the chat was opened from a direct link.
    if (fromProfile) navigate(`/${fromProfile}`);
    else if (locationRef.current.pathname === '/messenger') return;
    else goBack('/messenger');
  }, [selection, navigate, fromProfile, goBack]);

  // A chat on its way to opening (a group opened from its link, a chat just created): a phone goes straight
  // to it, without painting the list on the way.
  const opening =
    openChatKey !== undefined &&
    selected === null &&
    (chatsPending || (chats ?? []).some((c) => chatKey(c) === openChatKey));
  const fullScreen = narrow && (selected !== null || missing || opening);
  const setNavHidden = useShellUi((s) => s.setNavHidden);
  useEffect(() => {
    setNavHidden(fullScreen);
    return () => setNavHidden(false);
  }, [fullScreen, setNavHidden]);

  // Shell entries: search focuses the chat search; the menu toggles reduced unread badges (a server setting).
  useEffect(() => {
    const offSearch = registerShellCommand('messenger.search', () =>
      useMessengerUi.getState().requestSearchFocus(),
    );
    const offBadges = registerShellCommand('messenger.toggleReducedBadges', toggleReducedBadges);
    return () => {
      offSearch();
      offBadges();
    };
  }, [toggleReducedBadges]);
  useEffect(() => {
    if (searchFocus > 0) searchRef.current?.focus();
  }, [searchFocus]);

  // Alt+ArrowUp / Alt+ArrowDown move through the list, wrapping; ignored while media is open.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const direction = chatSwitchDirection(event, useMessengerUi.getState().mediaViewerOpen);
      if (direction === null) return;
      event.preventDefault();
      const current = visible.findIndex((chat) => chatKey(chat) === selection.selectedKey);
      const next = visible[neighbourIndex(visible.length, current, direction)];
      if (next) open(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [visible, selection.selectedKey, open]);

  const swipe = useSwipeClose(fullScreen, close);

  const onMenu = useCallback(
    (chat: ChatListItem, at: { x: number; y: number }) => setChatMenu({ chat, at }),
    [],
  );
  const menuItems = (chat: ChatListItem): PopupMenuItem[] => {
    const items: PopupMenuItem[] = [
      {
        id: 'pin',
        label: chat.is_pinned ? messengerStrings.unpin : messengerStrings.pin,
        onSelect: () => togglePin.mutate(chat),
      },
    ];
    if (!chat.is_favorites) {
      const room = chat.type !== 'personal';
      items.push({
        id: 'delete',
        label: room ? chatStrings.clearHistory : messengerStrings.deleteChat,
        danger: true,
        onSelect: () => {
          const question = room ? chatStrings.clearHistoryConfirm : messengerStrings.deleteChatConfirm;
          // biome-ignore lint/suspicious/noAlert: a yes/no confirmation (spec wording); alert() stays banned
          if (!window.confirm(question)) return;
          deleteChat.mutate(chat, {
            onSuccess: () => {
              if (!room && chatKey(chat) === selection.selectedKey) close();
            },
          });
        },
      });
    }
    return items;
  };

  if (!me) return null;

  return (
    <section
      className={styles.messenger}
      data-full-screen={fullScreen}
      // The list under a full-screen chat is not painted (nor read out) until a swipe back uncovers it.
      data-list-covered={fullScreen && !swipe.offset}
      data-clicks-blocked={swipe.blockedUntil ?? undefined}
      style={wide ? { gridTemplateColumns: `${resize.fraction * 100}vw 6px minmax(0, 1fr)` } : undefined}
      aria-labelledby="messenger-title"
      onClickCapture={(event) => {
        if (swipe.clicksBlocked()) {
          event.preventDefault();
          event.stopPropagation();
        }
      }}
    >
      <aside className={styles.sidebar}>
        <h1 id="messenger-title" className={styles.title}>
          {messengerStrings.title}
        </h1>
        <input
          ref={searchRef}
          className={styles.search}
          type="search"
          placeholder={messengerStrings.searchPlaceholder}
          aria-label={messengerStrings.searchPlaceholder}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
        />
        {chatsPending ? (
          <div className={styles.empty} role="status">
            <Spinner size={24} />
            <span>{messengerStrings.loading}</span>
          </div>
        ) : visible.length === 0 ? (
          <p className={styles.empty}>{messengerStrings.noChats}</p>
        ) : (
          <ChatList
            chats={visible}
            ownId={me.id}
            selectedKey={selection.selectedKey}
            reducedBadges={reducedBadges}
            label={messengerStrings.chatList}
            onSelect={open}
            onMenu={onMenu}
          />
        )}
        {query.trim() ? <PeopleResults query={query} chats={chats ?? []} ownId={me.id} /> : null}
        {query.trim() ? <PublicRoomResults query={query} /> : null}
        {query.trim() ? <MessageSearchResults query={query} chats={chats ?? []} onOpen={open} /> : null}
      </aside>
      {wide ? (
        // biome-ignore lint/a11y/useSemanticElements: a draggable splitter, not a thematic break.
        <div
          className={styles.resizer}
          role="separator"
          aria-orientation="vertical"
          aria-label={messengerStrings.resizeSidebar}
          aria-valuemin={SIDEBAR_MIN * 100}
          aria-valuemax={SIDEBAR_MAX * 100}
          aria-valuenow={Math.round(resize.fraction * 100)}
          tabIndex={0}
          {...resize.handlers}
        />
      ) : null}
      <div
        className={styles.main}
        {...(fullScreen ? swipe.bind() : {})}
        style={swipe.offset ? { transform: `translateX(${swipe.offset}px)` } : undefined}
      >
        {selected && isRoom(selected) ? (
          <Suspense fallback={<Spinner />}>
            <RoomChatWindow
              key={chatKey(selected)}
              chat={selected}
              me={me}
              showBack={narrow || fromProfile !== undefined}
              onClose={close}
              onReady={selection.finish}
            />
          </Suspense>
        ) : selected ? (
          <ChatWindow
            key={chatKey(selected)}
            chat={selected}
            me={me}
            chats={chats ?? []}
            showBack={narrow || fromProfile !== undefined}
            onClose={close}
            onReady={selection.finish}
          />
        ) : missing ? (
          // A link to a chat with nobody (#18 item 3): said plainly, with the way back to the list.
          <div className={styles.noChat} data-testid="chat-not-found" role="status">
            <span className={styles.noChatIcon}>
              <Icon name="messenger" size={40} />
            </span>
            <h2 className={styles.notFoundTitle}>{messengerStrings.chatNotFound}</h2>
            <p>{messengerStrings.chatNotFoundHint(username ?? '')}</p>
            <Button onClick={() => navigate('/messenger', { replace: true })}>
              {messengerStrings.backToChats}
            </Button>
          </div>
        ) : opening ? (
          <Spinner />
        ) : (
          <div className={styles.noChat}>
            <span className={styles.noChatIcon}>
              <Icon name="messenger" size={40} />
            </span>
            <p>{messengerStrings.selectChat}</p>
          </div>
        )}
      </div>
      {chatMenu ? (
        <PopupMenu
          label={messengerStrings.chatActions}
          at={chatMenu.at}
          items={menuItems(chatMenu.chat)}
          onClose={() => setChatMenu(null)}
        />
      ) : null}
    </section>
  );
}
