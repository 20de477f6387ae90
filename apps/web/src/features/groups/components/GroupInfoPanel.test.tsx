import type { Group, GroupMember } from '@kadr/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { useReportUi } from '../../moderation/report-store.ts';
import { ChatInfoPanel } from './ChatInfoPanel.tsx';
import { type Routes, renderWithQuery, stubApi } from './room-test-kit.tsx';

const member = (user_id: number, name: string, role: GroupMember['role']): GroupMember => ({
  user_id,
  username: `user${user_id}`,
  name,
  avatar_url: null,
  role,
});

const MEMBERS = [member(me.id, me.name, 'owner'), member(9, 'Борис', 'admin'), member(10, 'Вера', 'member')];

function groupAs(role: Group['role']): Group {
  return {
    id: 1,
    name: 'Три друга',
    slug: null,
    description: 'Про горы',
    avatar_url: null,
    is_public: false,
    inviteToken: 'tok',
    isMember: true,
    role,
    memberCount: 3,
    owner_id: me.id,
    created_at: '2026-01-01T00:00:00.000Z',
  };
}

function open(role: Group['role'], members = MEMBERS, extra: Routes = {}) {
  const api = stubApi({ 'GET /groups/1': groupAs(role), 'GET /groups/1/members': { members }, ...extra });
  renderWithQuery(<ChatInfoPanel kind="group" id={1} me={me} onClose={() => {}} onGone={() => {}} />);
  return api;
}

const row = async (name: string) =>
  (await screen.findAllByTestId('group-member')).find((li) => li.textContent?.includes(name)) as HTMLElement;

describe('GroupInfoPanel', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a plain member sees roles and may only leave', async () => {
    open('member', [
      member(1, 'Хозяйка', 'owner'),
      member(9, 'Борис', 'admin'),
      member(me.id, me.name, 'member'),
    ]);
    expect(within(await row('Хозяйка')).getByText('владелец')).toBeInTheDocument();
    expect(within(await row('Борис')).getByText('администратор')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Покинуть группу/ })).toBeInTheDocument();
    for (const name of [
      /Изменить группу/,
      /Добавить участников/,
      /Сделать администратором/,
      /Удалить из группы/,
      /Передать права владельца/,
      /Удалить группу/,
    ])
      expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('an admin edits and adds, removes plain members only, and cannot change roles', async () => {
    open('admin', [
      member(1, 'Хозяйка', 'owner'),
      member(me.id, me.name, 'admin'),
      member(9, 'Борис', 'admin'),
      member(10, 'Вера', 'member'),
    ]);
    await row('Вера');
    expect(screen.getByRole('button', { name: /Изменить группу/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Добавить участников/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Удалить из группы: Вера' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Удалить из группы: Борис' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Удалить из группы: Хозяйка' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Сделать администратором/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Снять права администратора/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Передать права владельца/ })).toBeNull();
  });

  it('the owner makes a member admin and demotes an admin through the role endpoint', async () => {
    const api = open('owner', MEMBERS, {
      'PATCH /groups/1/members/10': { members: MEMBERS },
      'PATCH /groups/1/members/9': { members: MEMBERS },
    });
    fireEvent.click(within(await row('Вера')).getByRole('button', { name: 'Сделать администратором: Вера' }));
    fireEvent.click(
      within(await row('Борис')).getByRole('button', { name: 'Снять права администратора: Борис' }),
    );
    await waitFor(() => expect(api.called('PATCH /groups/1/members/9')).toHaveLength(1));
    expect(api.called('PATCH /groups/1/members/10')[0]?.body).toEqual({ role: 'admin' });
    expect(api.called('PATCH /groups/1/members/9')[0]?.body).toEqual({ role: 'member' });
  });

  it('shows the server’s error text when an action is refused', async () => {
    open('owner', MEMBERS, {
      'DELETE /groups/1/members/10': jsonResponse(
        { error: 'Только владелец может это сделать', code: 'forbidden' },
        403,
      ),
    });
    fireEvent.click(within(await row('Вера')).getByRole('button', { name: 'Удалить из группы: Вера' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Только владелец может это сделать');
  });

  it('edits the name and description; a refusal stays in the sheet', async () => {
    let answer: Response | Group = jsonResponse({ error: 'Название занято', code: 'conflict' }, 409);
    const api = open('admin', MEMBERS, { 'PATCH /groups/1': () => answer });
    fireEvent.click(await screen.findByRole('button', { name: /Изменить группу/ }));
    const sheet = screen.getByRole('dialog', { name: 'Изменить группу' });
    fireEvent.change(within(sheet).getByLabelText('Название'), { target: { value: ' Четыре друга ' } });
    fireEvent.change(within(sheet).getByLabelText('Описание'), { target: { value: 'Про море' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Сохранить' }));
    expect(await within(sheet).findByRole('alert')).toHaveTextContent('Название занято');
    answer = groupAs('admin');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Изменить группу' })).toBeNull());
    expect(api.called('PATCH /groups/1').map((c) => c.body)).toEqual([
      { name: 'Четыре друга', description: 'Про море' },
      { name: 'Четыре друга', description: 'Про море' },
    ]);
  });

  it('adds members found by search; people already in the group cannot be picked', async () => {
    const api = open('admin', MEMBERS, {
      'GET /profile/search/users': {
        users: [
          { id: 10, username: 'user10', name: 'Вера', avatar_url: null, avatar_thumbnail_url: null },
          { id: 12, username: 'gleb', name: 'Глеб', avatar_url: null, avatar_thumbnail_url: null },
        ],
      },
      'POST /groups/1/members': { members: MEMBERS },
    });
    fireEvent.click(await screen.findByRole('button', { name: /Добавить участников/ }));
    const sheet = screen.getByRole('dialog', { name: 'Добавить участников' });
    fireEvent.change(within(sheet).getByRole('searchbox', { name: 'Найти людей' }), {
      target: { value: 'г' },
    });
    fireEvent.click(await within(sheet).findByRole('button', { name: /Глеб/ }));
    expect(within(sheet).getByRole('button', { name: /Вера/ })).toBeDisabled();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Добавить (1)' }));
    await waitFor(() => expect(api.called('POST /groups/1/members')).toHaveLength(1));
    expect(api.called('POST /groups/1/members')[0]?.body).toEqual({ user_ids: [12] });
  });

  it('the owner hands ownership over after a confirm step', async () => {
    const api = open('owner', MEMBERS, { 'POST /groups/1/owner': groupAs('admin') });
    fireEvent.click(await screen.findByRole('button', { name: /Передать права владельца/ }));
    const sheet = screen.getByRole('dialog', { name: 'Передать права владельца' });
    expect(within(sheet).queryByRole('button', { name: new RegExp(me.name) })).toBeNull();
    fireEvent.click(within(sheet).getByRole('button', { name: /Вера/ }));
    expect(
      within(sheet).getByText(/Передать права владельца группы «Три друга» пользователю Вера\?/),
    ).toBeInTheDocument();
    expect(api.called('POST /groups/1/owner')).toHaveLength(0);
    fireEvent.click(within(sheet).getByRole('button', { name: 'Передать' }));
    await waitFor(() => expect(api.called('POST /groups/1/owner')).toHaveLength(1));
    expect(api.called('POST /groups/1/owner')[0]?.body).toEqual({ user_id: 10 });
  });

  it('a member reports the group to the moderators; its owner has nothing to report', async () => {
    open('member', [member(1, 'Хозяйка', 'owner'), member(me.id, me.name, 'member')]);
    fireEvent.click(await screen.findByRole('button', { name: 'Пожаловаться на группу' }));
    expect(useReportUi.getState().target).toMatchObject({ kind: 'group', targetId: 1 });
    useReportUi.getState().close();
  });

  it('shows no report to the owner', async () => {
    open('owner');
    await row('Вера');
    expect(screen.queryByRole('button', { name: 'Пожаловаться на группу' })).toBeNull();
  });
});
