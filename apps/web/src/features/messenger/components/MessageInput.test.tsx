import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MessageInput } from './MessageInput.tsx';

function setup(props: Partial<Parameters<typeof MessageInput>[0]> = {}) {
  const handlers = {
    onSend: vi.fn(),
    onSaveEdit: vi.fn(),
    onCancelEdit: vi.fn(),
    onTyping: vi.fn(),
  };
  const view = render(<MessageInput disabled={false} editing={null} {...handlers} {...props} />);
  return { ...handlers, view, area: screen.getByRole('textbox', { name: 'Сообщение' }) };
}

describe('MessageInput', () => {
  it('sends the trimmed text on Enter (desktop width) and inserts a newline on Shift+Enter', async () => {
    window.innerWidth = 1280;
    const { area, onSend, onTyping } = setup();
    await userEvent.type(area, '  привет{Shift>}{Enter}{/Shift}мир');
    expect(area).toHaveValue('  привет\nмир');
    expect(onTyping).toHaveBeenCalled();
    await userEvent.type(area, '{Enter}');
    expect(onSend).toHaveBeenCalledWith('привет\nмир', []);
    expect(area).toHaveValue('');
  });

  it('inserts a newline on Enter under 768 px and never sends blank text', async () => {
    window.innerWidth = 500;
    const { area, onSend } = setup();
    await userEvent.type(area, 'a{Enter}b');
    expect(area).toHaveValue('a\nb');
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.clear(area);
    await userEvent.type(area, '   ');
    expect(screen.getByRole('button', { name: 'Отправить' })).toBeDisabled();
    window.innerWidth = 1280;
  });

  it('editing fills the input, saves the new text, and cancelling clears it', async () => {
    window.innerWidth = 1280;
    const { area, onSaveEdit, onCancelEdit, view } = setup({ editing: { id: 5, content: 'старый текст' } });
    expect(area).toHaveValue('старый текст');
    await userEvent.clear(area);
    await userEvent.type(area, 'новый{Enter}');
    expect(onSaveEdit).toHaveBeenCalledWith(5, 'новый');
    await userEvent.click(screen.getByRole('button', { name: 'Отменить редактирование' }));
    expect(onCancelEdit).toHaveBeenCalled();
    view.rerender(
      <MessageInput
        disabled={false}
        editing={null}
        onSend={vi.fn()}
        onSaveEdit={onSaveEdit}
        onCancelEdit={onCancelEdit}
        onTyping={vi.fn()}
      />,
    );
    expect(area).toHaveValue('');
  });

  it('is disabled with the placeholder Чат недоступен when the chat is unavailable', () => {
    const { area } = setup({ disabled: true });
    expect(area).toBeDisabled();
    expect(area).toHaveAttribute('placeholder', 'Чат недоступен');
  });
});
