import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { messageOf } from '../../../test/fixtures.ts';
import type { MessageStatus } from '../lib/message-status.ts';
import { MessageBubble } from './MessageBubble.tsx';

vi.mock('./MessageBubble.module.css', async () => {
  const { fileURLToPath } = await import('node:url');
  const { cssModuleClasses } = await import('../../../test/css-module.ts');
  return { default: cssModuleClasses(fileURLToPath(import.meta.resolve('./MessageBubble.module.css'))) };
});

const message = messageOf(5, 1, { sender_name: 'Анна', sender_username: 'anna', content: 'привет' });

/** The bubble's callbacks, none of which these tests press. */
const handlers = () => ({ onMenu: vi.fn(), onResend: vi.fn(), onReact: vi.fn(), onOpenMedia: vi.fn() });

const statuses: MessageStatus[] = ['pending', 'failed', 'sent', 'delivered', 'read'];

describe('MessageBubble', () => {
  it.each(statuses)('renders no "undefined" class for a %s message', (status) => {
    const { container } = render(
      <ul>
        <MessageBubble
          item={{
            key: 'k',
            message,
            status,
            tempId: status === 'pending' || status === 'failed' ? 't' : null,
          }}
          own
          ownId={1}
          {...handlers()}
        />
      </ul>,
    );
    const classes = [...container.querySelectorAll('[class]')].flatMap((element) => [...element.classList]);
    expect(classes.length).toBeGreaterThan(0);
    expect(classes.filter((name) => name.includes('undefined'))).toEqual([]);
    expect(container.querySelector('[data-status] [role="img"]')?.className).toContain('status');
  });

  it("draws the emoji of a reply's quote as images", () => {
    const reply = messageOf(6, 2, {
      content: 'да',
      reply_to: {
        id: 5,
        sender_id: 1,
        sender_name: 'Анна',
        content: 'Встречаемся? 🙂',
        message_type: 'text',
        is_deleted: false,
      },
    });
    const { getByTestId } = render(
      <ul>
        <MessageBubble
          item={{ key: 'k', message: reply, status: 'read', tempId: null }}
          own={false}
          ownId={1}
          {...handlers()}
        />
      </ul>,
    );
    expect(getByTestId('reply-quote').querySelector('img')).toHaveAttribute('alt', '🙂');
  });
});
