import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { settingsOf } from '../../../test/fixtures.ts';
import { settingsKeys } from '../../settings/api/settings-queries.ts';
import { MessageInput } from './MessageInput.tsx';

/** The input as the server's settings say ("Enter sends" on unless told otherwise). */
function setup(props: Partial<Parameters<typeof MessageInput>[0]> = {}, enterSends = true) {
  const handlers = {
    onSend: vi.fn(),
    onSaveEdit: vi.fn(),
    onCancelEdit: vi.fn(),
    onTyping: vi.fn(),
  };
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(settingsKeys.document(), settingsOf({ enter_sends: enterSends }));
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const view = render(<MessageInput disabled={false} editing={null} {...handlers} {...props} />, { wrapper });
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

  it('follows the server setting "Enter sends" off: Enter breaks the line, Ctrl+Enter and Cmd+Enter send', async () => {
    window.innerWidth = 1280;
    const { area, onSend } = setup({}, false);
    await userEvent.type(area, 'раз{Enter}два');
    expect(area).toHaveValue('раз\nдва');
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.type(area, '{Control>}{Enter}{/Control}');
    expect(onSend).toHaveBeenCalledWith('раз\nдва', []);
    expect(area).toHaveValue('');
    await userEvent.type(area, 'три{Meta>}{Enter}{/Meta}');
    expect(onSend).toHaveBeenLastCalledWith('три', []);
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

  it('editing does not tell the peer one is typing (only new text does)', async () => {
    window.innerWidth = 1280;
    const { area, onTyping } = setup({ editing: { id: 5, content: 'было' } });
    await userEvent.type(area, ' стало');
    expect(onTyping).not.toHaveBeenCalled();
  });

  it('near the 4,096 limit shows what remains; past it, how many messages the text goes as', async () => {
    window.innerWidth = 1280;
    const { area } = setup();
    expect(screen.queryByTestId('length-counter')).not.toBeInTheDocument();
    await userEvent.click(area);
    await userEvent.paste('а'.repeat(4000));
    expect(screen.getByTestId('length-counter')).toHaveTextContent('Осталось символов: 96');
    await userEvent.paste('б'.repeat(5000));
    expect(screen.getByTestId('length-counter')).toHaveTextContent('уйдёт 3 сообщениями');
    expect(screen.getByRole('button', { name: 'Отправить' })).toBeEnabled();
  });

  it('an edit past the limit cannot be saved (it cannot be split)', async () => {
    window.innerWidth = 1280;
    setup({ editing: { id: 5, content: 'я'.repeat(4100) } });
    expect(screen.getByTestId('length-counter')).toHaveTextContent('сократите текст');
    expect(screen.getByRole('button', { name: 'Сохранить' })).toBeDisabled();
  });

  it('a restriction closes the field and says so in it', () => {
    const { area } = setup({ disabled: true, disabledReason: 'Отправка сообщений недоступна' });
    expect(area).toBeDisabled();
    expect(area).toHaveAttribute('placeholder', 'Отправка сообщений недоступна');
  });

  it('is disabled with the placeholder Чат недоступен when the chat is unavailable', () => {
    const { area } = setup({ disabled: true });
    expect(area).toBeDisabled();
    expect(area).toHaveAttribute('placeholder', 'Чат недоступен');
  });
});
