import type { Channel, ChannelAdmin } from '@kadr/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { useReportUi } from '../../moderation/report-store.ts';
import { ChatInfoPanel } from './ChatInfoPanel.tsx';
import { type Routes, renderWithQuery, stubApi } from './room-test-kit.tsx';

function channelAs(role: Channel['role']): Channel {
  return {
    id: 5,
    name: 'Новости',
    slug: 'news_ru',
    description: '',
    avatar_url: null,
    is_public: true,
    subscribers_count: 3,
    is_subscribed: role !== null,
    can_post: role === 'owner' || role === 'admin',
    role,
    owner_id: me.id,
    created_at: '2026-01-01T00:00:00.000Z',
    last_post: null,
    last_post_time: null,
  };
}

const admin = (user_id: number, name: string, role: ChannelAdmin['role']): ChannelAdmin => ({
  user_id,
  username: `user${user_id}`,
  name,
  avatar_url: null,
  role,
  can_post: true,
  can_edit_others: role === 'owner',
  can_delete_others: role === 'owner',
});
const ADMINS = [admin(me.id, me.name, 'owner'), admin(9, 'Борис', 'admin')];
const sub = (user_id: number, name: string, role: Channel['role'] & string) => ({
  user_id,
  username: `user${user_id}`,
  name,
  avatar_url: null,
  role,
});
const SUBSCRIBERS = {
  subscribers: [sub(me.id, me.name, 'owner'), sub(9, 'Борис', 'admin'), sub(10, 'Вера', 'subscriber')],
  has_more: false,
};

function open(role: Channel['role'], extra: Routes = {}) {
  const api = stubApi({
    'GET /channels/5': channelAs(role),
    'GET /channels/5/admins': { admins: ADMINS },
    'GET /channels/5/subscribers': SUBSCRIBERS,
    ...extra,
  });
  renderWithQuery(<ChatInfoPanel kind="channel" id={5} me={me} onClose={() => {}} onGone={() => {}} />);
  return api;
}

describe('ChannelInfoPanel', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a subscriber sees neither list and asks for neither', async () => {
    const api = open('subscriber');
    expect(await screen.findByRole('button', { name: 'Отписаться' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Подписчики' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Администраторы' })).toBeNull();
    expect(api.called('GET /channels/5/subscribers')).toHaveLength(0);
    expect(api.called('GET /channels/5/admins')).toHaveLength(0);
  });

  it('an administrator sees subscribers and administrators but cannot appoint or dismiss', async () => {
    open('admin');
    const subscribers = await screen.findByRole('list', { name: 'Подписчики' });
    expect(await within(subscribers).findByText('Вера')).toBeInTheDocument();
    const admins = screen.getByRole('list', { name: 'Администраторы' });
    expect(await within(admins).findByText('Борис')).toBeInTheDocument();
    expect(within(admins).getByText('владелец')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Добавить администратора/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Снять права администратора/ })).toBeNull();
  });

  it('loads more subscribers at an offset equal to the count loaded', async () => {
    let page = 0;
    const api = open('owner', {
      'GET /channels/5/subscribers': () =>
        page++ === 0
          ? { ...SUBSCRIBERS, has_more: true }
          : { subscribers: [sub(11, 'Глеб', 'subscriber')], has_more: false },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Показать ещё' }));
    expect(await screen.findByText('Глеб')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Показать ещё' })).toBeNull();
    expect(api.calls.filter((c) => c.route === 'GET /channels/5/subscribers')).toHaveLength(2);
    const urls = vi
      .mocked(fetch)
      .mock.calls.map(([u]) => String(u))
      .filter((u) => u.includes('/subscribers'));
    expect(urls[1]).toContain('offset=3');
  });

  it('the owner appoints a subscriber with the chosen rights', async () => {
    const api = open('owner', {
      'POST /channels/5/admins': { admins: [...ADMINS, admin(10, 'Вера', 'admin')] },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Добавить администратора/ }));
    const sheet = screen.getByRole('dialog', { name: 'Добавить администратора' });
    expect(within(sheet).getByRole('button', { name: 'Назначить администратором' })).toBeDisabled();
    fireEvent.click(await within(sheet).findByRole('button', { name: /Вера/ }));
    expect(within(sheet).queryByRole('button', { name: /Борис/ })).toBeNull();
    expect(within(sheet).getByRole('checkbox', { name: 'Публикация сообщений' })).toBeChecked();
    fireEvent.click(within(sheet).getByRole('checkbox', { name: 'Удаление чужих сообщений' }));
    fireEvent.click(within(sheet).getByRole('button', { name: 'Назначить администратором' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Добавить администратора' })).toBeNull());
    expect(api.called('POST /channels/5/admins')[0]?.body).toEqual({
      user_id: 10,
      can_post: true,
      can_edit_others: false,
      can_delete_others: true,
    });
  });

  it('the owner edits an administrator’s rights in place, starting from the rights they have', async () => {
    const api = open('owner', {
      'PATCH /channels/5/admins/9': {
        admins: [ADMINS[0], { ...admin(9, 'Борис', 'admin'), can_edit_others: true }],
      },
    });
    expect(screen.queryByRole('button', { name: `Изменить права: ${me.name}` })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Изменить права: Борис' }));
    const sheet = screen.getByRole('dialog', { name: 'Права администратора: Борис' });
    expect(within(sheet).getByRole('checkbox', { name: 'Публикация сообщений' })).toBeChecked();
    expect(within(sheet).getByRole('checkbox', { name: 'Изменение чужих сообщений' })).not.toBeChecked();
    fireEvent.click(within(sheet).getByRole('checkbox', { name: 'Изменение чужих сообщений' }));
    fireEvent.click(within(sheet).getByRole('checkbox', { name: 'Публикация сообщений' }));
    fireEvent.click(within(sheet).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Права администратора: Борис' })).toBeNull(),
    );
    expect(api.called('PATCH /channels/5/admins/9')[0]?.body).toEqual({
      can_post: false,
      can_edit_others: true,
      can_delete_others: false,
    });
    expect(api.called('POST /channels/5/admins')).toHaveLength(0);
  });

  it('an administrator sees no rights editing', async () => {
    open('admin');
    await screen.findByRole('list', { name: 'Администраторы' });
    expect(screen.queryByRole('button', { name: /Изменить права/ })).toBeNull();
  });

  it('shows the server’s refusal to a rights change in its sheet', async () => {
    open('owner', {
      'PATCH /channels/5/admins/9': jsonResponse(
        { error: 'Это может только владелец канала', code: 'forbidden' },
        403,
      ),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Изменить права: Борис' }));
    const sheet = screen.getByRole('dialog', { name: 'Права администратора: Борис' });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Сохранить' }));
    expect(await within(sheet).findByRole('alert')).toHaveTextContent('Это может только владелец канала');
  });

  it('shows the server’s refusal in the sheet, and the owner dismisses an administrator', async () => {
    const api = open('owner', {
      'POST /channels/5/admins': jsonResponse({ error: 'Пользователь не найден', code: 'not_found' }, 404),
      'DELETE /channels/5/admins/9': { admins: [ADMINS[0]] },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Добавить администратора/ }));
    const sheet = screen.getByRole('dialog', { name: 'Добавить администратора' });
    fireEvent.click(await within(sheet).findByRole('button', { name: /Вера/ }));
    fireEvent.click(within(sheet).getByRole('button', { name: 'Назначить администратором' }));
    expect(await within(sheet).findByRole('alert')).toHaveTextContent('Пользователь не найден');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Отмена' }));

    expect(screen.queryByRole('button', { name: `Снять права администратора: ${me.name}` })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Снять права администратора: Борис' }));
    await waitFor(() => expect(api.called('DELETE /channels/5/admins/9')).toHaveLength(1));
  });

  it('a subscriber reports the channel to the moderators; its owner does not see the report', async () => {
    open('subscriber');
    fireEvent.click(await screen.findByRole('button', { name: 'Пожаловаться на канал' }));
    expect(useReportUi.getState().target).toMatchObject({ kind: 'channel', targetId: 5 });
    useReportUi.getState().close();
  });

  it('shows no report to the channel owner', async () => {
    open('owner');
    await screen.findByRole('button', { name: /Удалить канал/ });
    expect(screen.queryByRole('button', { name: 'Пожаловаться на канал' })).toBeNull();
  });
});
