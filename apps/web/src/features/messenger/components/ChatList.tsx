import type { ChatListItem } from '@kadr/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { chatKey } from '../lib/chat-order.ts';
import { CHAT_LIST_OVERSCAN, CHAT_ROW_HEIGHT, visibleChatRows } from '../lib/list-window.ts';
import { observeRectAfterLayout, scrollAfterMount } from '../lib/virtual-mount.ts';
import styles from './ChatList.module.css';
import { ChatListRow } from './ChatListRow.tsx';

interface Props {
  chats: readonly ChatListItem[];
  ownId: number;
  selectedKey: string | null;
  reducedBadges: boolean;
  label: string;
  onSelect: (chat: ChatListItem) => void;
  onMenu: (chat: ChatListItem, at: { x: number; y: number }) => void;
}

const estimateSize = () => CHAT_ROW_HEIGHT;

function useScreenRows(): number {
  const [rows, setRows] = useState(() => visibleChatRows(window.screen?.height || window.innerHeight));
  useEffect(() => {
    const update = () => setRows(visibleChatRows(window.screen?.height || window.innerHeight));
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return rows;
}

/**
 * The chat list, virtualized (spec §9): 72 px rows, 20 visible rows on screens 900 px or taller
 * (else 15), 5 more rendered around them, so 5,000 chats cost as much DOM as 30.
 */
export function ChatList({ chats, ownId, selectedKey, reducedBadges, label, onSelect, onMenu }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useScreenRows();
  // Stable callbacks: the virtualizer re-measures all rows whenever they change identity. Rows have one
  // fixed height, so the virtualizer needs no item keys (with them, every change to the list — a switch
  // clearing an unread count — re-measured all 5,000 rows); React keys the rendered rows by chat below.
  const getScrollElement = useCallback(() => scrollRef.current, []);
  const virtualizer = useVirtualizer({
    count: chats.length,
    getScrollElement,
    estimateSize,
    overscan: CHAT_LIST_OVERSCAN,
    // The first screen is sized from the rows it can show; the real size comes after the frame's layout.
    initialRect: { width: 320, height: rows * CHAT_ROW_HEIGHT },
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollAfterMount,
  });

  const selectedIndex = chats.findIndex((chat) => chatKey(chat) === selectedKey);
  useEffect(() => {
    if (selectedIndex < 0) return;
    // A chat already on screen (by the virtualizer's own offset and size: nothing read from the page) is not
    // scrolled to: the write would lay the whole page out inside this commit, even to the offset it is at —
    // 57 ms unthrottled on a cold group page, its longest task (docs/PITFALLS.md).
    const top = selectedIndex * CHAT_ROW_HEIGHT;
    const offset = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    if (top >= offset && top + CHAT_ROW_HEIGHT <= offset + height) return;
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  return (
    <div
      ref={scrollRef}
      className={styles.scroller}
      style={{ maxHeight: rows * CHAT_ROW_HEIGHT }}
      data-testid="chat-list"
    >
      <ul className={styles.track} style={{ height: virtualizer.getTotalSize() }} aria-label={label}>
        {virtualizer.getVirtualItems().map((item) => {
          const chat = chats[item.index];
          if (!chat) return null;
          const key = chatKey(chat);
          return (
            <li
              key={key}
              className={styles.slot}
              style={{ height: CHAT_ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
            >
              <ChatListRow
                chat={chat}
                ownId={ownId}
                selected={key === selectedKey}
                reducedBadges={reducedBadges}
                onSelect={onSelect}
                onMenu={onMenu}
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
