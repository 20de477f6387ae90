import type { MessageFile } from '@kadr/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatOf, jsonResponse } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
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
      <ForwardDialog chats={[chat(2, 'Борис'), chat(3, 'Вера')]} ownId={1} onPick={vi.fn()} onClose={close} />
    ),
  },
  {
    name: 'MediaViewer',
    dialog: 'Просмотр медиа',
    modal: (close: () => void) => <MediaViewer file={photo} onClose={close} />,
  },
];

afterEach(() => vi.unstubAllGlobals());

describe.each(cases)('$name on the shared modal', ({ dialog, modal }) => {
  it('takes focus, keeps Tab inside, makes the page inert and returns focus on Escape', async () => {
    render(<Page modal={modal} />, { wrapper: stubbedApp(() => jsonResponse({ users: [] })).wrapper });
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
    render(<Page modal={modal} />, { wrapper: stubbedApp(() => jsonResponse({ users: [] })).wrapper });
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);
    const panel = screen.getByRole('dialog', { name: dialog });
    await userEvent.click(within(panel).getByRole('button', { name: 'Закрыть' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});

describe('ForwardDialog', () => {
  it('offers the chats and picks one by its kind and id', async () => {
    const onPick = vi.fn();
    const group = chatOf({ type: 'group', user_id: 3, username: 'Группа', group_id: 3 });
    render(<ForwardDialog chats={[chat(2, 'Борис'), group]} ownId={1} onPick={onPick} onClose={vi.fn()} />, {
      wrapper: stubbedApp(() => jsonResponse({ users: [] })).wrapper,
    });
    await userEvent.click(screen.getByRole('button', { name: /Группа/ }));
    expect(onPick).toHaveBeenCalledWith({ type: 'group', user_id: 3, is_favorites: false });
  });

  it('searches chats by name and people one has no chat with, and forwards to a person', async () => {
    const onPick = vi.fn();
    const app = stubbedApp(() =>
      jsonResponse({
        forms: ['р'],
        people: [
          { id: 2, username: 'boris', name: 'Борис', avatar_url: null, avatar_thumbnail_url: null },
          { id: 7, username: 'vera', name: 'Вера', avatar_url: null, avatar_thumbnail_url: null },
        ],
        groups: [],
        channels: [],
        messages: [],
      }),
    );
    render(
      <ForwardDialog
        chats={[chat(2, 'Борис'), chat(4, 'Анна')]}
        ownId={1}
        onPick={onPick}
        onClose={vi.fn()}
      />,
      { wrapper: app.wrapper },
    );
    await userEvent.type(screen.getByRole('searchbox', { name: 'Поиск людей и чатов' }), 'р');
    // The chat list narrows as one types; a person with a chat already is not offered twice.
    expect(screen.queryByRole('button', { name: /Анна/ })).not.toBeInTheDocument();
    const person = await screen.findByRole('button', { name: /@vera/ });
    expect(screen.getAllByRole('button', { name: /Борис/ })).toHaveLength(1);
    expect(app.urls().some((u) => u.includes('/search/messenger?q='))).toBe(true);
    await userEvent.click(person);
    expect(onPick).toHaveBeenCalledWith({ type: 'personal', user_id: 7, is_favorites: false });
  });
});
