import type { ChatListItem } from '@kadr/contract';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatOf } from '../../../test/fixtures.ts';
import { chatKey } from '../lib/chat-order.ts';
import { CHAT_LIST_OVERSCAN, CHAT_ROW_HEIGHT } from '../lib/list-window.ts';
import { ChatList } from './ChatList.tsx';

const chat = (id: number): ChatListItem =>
  chatOf({ user_id: id, username: `user${id}`, profile_username: `user${id}` });

/** Counts the layout-forcing calls the list's mount could make on any element. */
function watchLayout() {
  const reads = { size: 0, scrolls: 0 };
  const count = (name: 'clientWidth' | 'clientHeight') =>
    vi.spyOn(HTMLElement.prototype, name, 'get').mockImplementation(() => {
      reads.size += 1;
      return 0;
    });
  count('clientWidth');
  count('clientHeight');
  Element.prototype.scrollTo = vi.fn(() => {
    reads.scrolls += 1;
  }) as typeof Element.prototype.scrollTo;
  return reads;
}

const scrollTo = Element.prototype.scrollTo;
afterEach(() => {
  Element.prototype.scrollTo = scrollTo;
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** jsdom has no ResizeObserver; the list only needs one to exist. */
function stubResizeObserver() {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}

function renderSelected(index: number) {
  stubResizeObserver();
  const chats = Array.from({ length: 60 }, (_, i) => chat(i + 2));
  const reads = watchLayout();
  const props = {
    chats,
    ownId: 1,
    reducedBadges: false,
    label: 'Чаты',
    onSelect: () => undefined,
    onMenu: () => undefined,
  };
  const view = render(<ChatList {...props} selectedKey={null} />);
  return {
    reads,
    select: (at: number) =>
      view.rerender(<ChatList {...props} selectedKey={chatKey(chats[at] as ChatListItem)} />),
    first: () => render(<ChatList {...props} selectedKey={chatKey(chats[index] as ChatListItem)} />),
  };
}

describe('ChatList', () => {
  it('does not scroll to a selected chat already on its first screen (a scroll write lays the page out)', () => {
    const { reads, first } = renderSelected(3);
    first();
    expect(reads.scrolls).toBe(0);
  });

  it('scrolls to a selected chat below its first screen, at mount and when the selection moves there', () => {
    const { reads, first, select } = renderSelected(50);
    select(2);
    expect(reads.scrolls).toBe(0);
    select(55);
    expect(reads.scrolls).toBe(1);
    first();
    expect(reads.scrolls).toBe(2);
  });

  it('mounts without reading its size or writing its scroll (no layout forced in the commit), rows from its first screen', () => {
    const observed: Element[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe(target: Element) {
          observed.push(target);
        }
        unobserve() {}
        disconnect() {}
      },
    );
    const reads = watchLayout();
    render(
      <ChatList
        chats={Array.from({ length: 40 }, (_, i) => chat(i + 2))}
        ownId={1}
        selectedKey={null}
        reducedBadges={false}
        label="Чаты"
        onSelect={() => undefined}
        onMenu={() => undefined}
      />,
    );
    expect(reads).toEqual({ size: 0, scrolls: 0 });
    // Its size is watched instead, and the first screen's rows are there from the initial size.
    expect(observed).toContain(screen.getByTestId('chat-list'));
    const rows = screen.getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(screen.getByTestId('chat-list').style.maxHeight).toBe(
      `${(rows.length - CHAT_LIST_OVERSCAN) * CHAT_ROW_HEIGHT}px`,
    );
  });
});

describe('a chat row', () => {
  it('draws the emoji of its last message as images', () => {
    stubResizeObserver();
    const withEmoji = chatOf({
      user_id: 2,
      username: 'Вера',
      last_message: {
        content: 'Договорились 👍',
        sender_id: 2,
        sender_username: 'vera',
        is_read: false,
        is_delivered: true,
        created_at: '2026-12-01T10:00:00.000Z',
        message_type: 'text',
      },
    });
    render(
      <ChatList
        chats={[withEmoji]}
        ownId={1}
        reducedBadges={false}
        label="Чаты"
        selectedKey={null}
        onSelect={() => undefined}
        onMenu={() => undefined}
      />,
    );
    expect(screen.getByText('Договорились', { exact: false }).querySelector('img')).toHaveAttribute(
      'src',
      '/emoji/1f44d.svg',
    );
  });
});
