import type { LiveChatMessage } from '@kadr/contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LiveChat, type LiveChatModeration } from './LiveChat.tsx';

const line = (id: number, sender_id: number, sender_name: string, content: string): LiveChatMessage => ({
  id,
  type: 'live-stream-message',
  stream_id: 7,
  content,
  sender_id,
  sender_name,
  timestamp: '2026-01-01T00:00:00.000Z',
  temp_id: `t${id}`,
});

const lines = [line(1, 1, 'Хост', 'Добро пожаловать'), line(2, 3, 'Валера', 'Привет')];

describe('the live chat', () => {
  it('draws the emoji of a line as images', () => {
    render(<LiveChat messages={[line(4, 3, 'Валера', 'Огонь 🔥')]} onSend={vi.fn()} slowModeSeconds={0} />);
    expect(screen.getByAltText('🔥')).toHaveAttribute('src', '/emoji/1f525.svg');
  });

  it('shows no moderation to a viewer, and keeps a refused line in the box with the server’s reason', async () => {
    const onSend = vi.fn(async () => 'Медленный режим: следующее сообщение через 9 с');
    render(<LiveChat messages={lines} onSend={onSend} slowModeSeconds={10} />);
    expect(screen.queryByRole('button', { name: /Действия с сообщением/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: /Медленный режим/ })).not.toBeInTheDocument();
    expect(screen.getByText('Медленный режим: одно сообщение в 10 с')).toBeInTheDocument();
    const input = screen.getByRole('textbox', { name: 'Сообщение' });
    await userEvent.type(input, 'Ещё раз{Enter}');
    expect(onSend).toHaveBeenCalledWith('Ещё раз');
    expect(await screen.findByRole('alert')).toHaveTextContent('следующее сообщение через 9 с');
    expect(input).toHaveValue('Ещё раз');
  });

  it('lets a viewer report someone else’s line, never their own', async () => {
    const onReport = vi.fn();
    render(
      <LiveChat
        messages={lines}
        onSend={async () => null}
        slowModeSeconds={0}
        meId={3}
        onReport={onReport}
      />,
    );
    // Only the host's line (not the viewer's own «Привет») has a menu, and it offers only the report.
    expect(screen.queryByRole('button', { name: 'Действия с сообщением: Валера' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Действия с сообщением: Хост' }));
    expect(screen.queryByRole('menuitem', { name: 'Удалить сообщение' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Пожаловаться' }));
    expect(onReport).toHaveBeenCalledWith(lines[0]);
  });

  it('clears the box once the server took the line; a muted viewer cannot type', async () => {
    const onSend = vi.fn(async () => null);
    const { rerender } = render(<LiveChat messages={lines} onSend={onSend} slowModeSeconds={0} />);
    const input = screen.getByRole('textbox', { name: 'Сообщение' });
    await userEvent.type(input, 'Привет{Enter}');
    expect(input).toHaveValue('');
    rerender(<LiveChat messages={lines} onSend={onSend} slowModeSeconds={0} muted />);
    expect(screen.getByRole('textbox', { name: 'Сообщение' })).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Автор эфира ограничил вам чат');
  });

  it('gives a moderator a menu per line: delete any, mute and ban only others than the host and oneself', async () => {
    const moderation: LiveChatModeration = {
      hostId: 1,
      meId: 1,
      onDelete: vi.fn(),
      onMute: vi.fn(),
      onBan: vi.fn(),
    };
    const onSlowMode = vi.fn();
    render(
      <LiveChat
        messages={lines}
        onSend={async () => null}
        slowModeSeconds={0}
        moderation={moderation}
        onSlowMode={onSlowMode}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Действия с сообщением: Хост' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Удалить сообщение']);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Действия с сообщением: Валера' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Удалить из эфира' }));
    expect(moderation.onBan).toHaveBeenCalledWith(lines[1]);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /Медленный режим/ }), '30');
    expect(onSlowMode).toHaveBeenCalledWith(30);
  });
});
