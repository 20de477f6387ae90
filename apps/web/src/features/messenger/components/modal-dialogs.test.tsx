import type { MessageFile } from '@kadr/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { chatOf } from '../../../test/fixtures.ts';
import { ForwardDialog } from './ForwardDialog.tsx';
import { MediaViewer } from './MediaViewer.tsx';

const chat = (user_id: number, username: string) =>
  chatOf({ user_id, username, profile_username: username.toLowerCase() });

const photo: MessageFile = {
  file_type: 'photo',
  file_url: '/files/photo.webp',
  thumbnail_url: null,
  width: 800,
  height: 600,
  duration: null,
  file_size: 1000,
  file_name: 'photo.jpg',
};

/** A page with a control behind the modal and the button that opens it (focus must come back to it). */
function Page({ modal }: { modal: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <main>
        <button type="button">За окном</button>
        <button type="button" onClick={() => setOpen(true)}>
          Открыть
        </button>
      </main>
      {open ? <div>{modal(() => setOpen(false))}</div> : null}
    </>
  );
}

const cases = [
  {
    name: 'ForwardDialog',
    dialog: 'Переслать в чат',
    modal: (close: () => void) => (
      <ForwardDialog chats={[chat(2, 'Борис'), chat(3, 'Вера')]} onPick={vi.fn()} onClose={close} />
    ),
  },
  {
    name: 'MediaViewer',
    dialog: 'Просмотр медиа',
    modal: (close: () => void) => <MediaViewer file={photo} onClose={close} />,
  },
];

describe.each(cases)('$name on the shared modal', ({ dialog, modal }) => {
  it('takes focus, keeps Tab inside, makes the page inert and returns focus on Escape', async () => {
    render(<Page modal={modal} />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);

    const panel = screen.getByRole('dialog', { name: dialog });
    expect(panel).toHaveAttribute('aria-modal', 'true');
    expect(panel.contains(document.activeElement)).toBe(true);
    // The page behind is inert: out of the tab order and of the accessibility tree.
    expect(screen.getByRole('main')).toHaveProperty('inert', true);

    for (let i = 0; i < 6; i++) {
      await userEvent.tab();
      expect(panel.contains(document.activeElement)).toBe(true);
    }
    await userEvent.tab({ shift: true });
    expect(panel.contains(document.activeElement)).toBe(true);

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveProperty('inert', false);
    expect(opener).toHaveFocus();
    // Eight key presses through user-event: beyond the 5 s default on the shared, loaded machine.
  }, 30_000);

  it('closes from its close button and gives focus back', async () => {
    render(<Page modal={modal} />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);
    const panel = screen.getByRole('dialog', { name: dialog });
    await userEvent.click(within(panel).getByRole('button', { name: 'Закрыть' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});

describe('ForwardDialog', () => {
  it('offers the personal chats and picks one', async () => {
    const onPick = vi.fn();
    render(<ForwardDialog chats={[chat(2, 'Борис'), chat(3, 'Вера')]} onPick={onPick} onClose={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: /Вера/ }));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ user_id: 3 }));
  });
});
