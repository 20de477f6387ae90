import { render } from '@testing-library/react';
import { memo } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { me, messageOf } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import type { DisplayMessage } from '../lib/message-status.ts';
import { MessageList } from './MessageList.tsx';

const bubbleRenders = vi.hoisted(() => ({ count: 0 }));

// The bubble as the list uses it (memoised), counting its renders.
vi.mock('./MessageBubble.tsx', () => ({
  MessageBubble: memo(function CountedBubble({ item }: { item: DisplayMessage }) {
    bubbleRenders.count += 1;
    return <li>{item.message.content}</li>;
  }),
}));

const items: DisplayMessage[] = [1, 2, 3].map((id) => ({
  key: `m${id}`,
  message: messageOf(id, 9),
  status: null,
  tempId: null,
}));

function list(onMenu = vi.fn()) {
  // As a chat window passes them: new inline arrows on each of its renders.
  return (
    <MessageList
      items={items}
      ownId={me.id}
      hasMore={false}
      loadingOlder={false}
      label="Переписка"
      onLoadOlder={() => undefined}
      onMenu={(item, at) => onMenu(item, at)}
      onResend={() => undefined}
      onDiscard={() => undefined}
      onOpenMedia={() => undefined}
      onJumpTo={() => undefined}
    />
  );
}

describe('MessageList', () => {
  it('does not render its bubbles again when the window renders with new inline handlers', () => {
    const { wrapper } = stubbedApp(async () => new Response('{}'));
    const view = render(list(), { wrapper });
    expect(bubbleRenders.count).toBe(3);
    view.rerender(list());
    view.rerender(list());
    expect(bubbleRenders.count).toBe(3);
  });
});
