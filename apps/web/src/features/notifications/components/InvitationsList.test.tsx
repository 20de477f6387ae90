import type { Invitation } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';
import { InvitationsList } from './InvitationsList.tsx';

const invitation = (id: number, kind: Invitation['kind'], place: string): Invitation => ({
  id,
  kind,
  place_id: 100 + id,
  place_name: place,
  place_avatar_url: null,
  inviter: { id: 7, username: 'anna', name: 'Анна', avatar_url: null, avatar_thumbnail_url: null },
  created_at: new Date().toISOString(),
});

let pending: Invitation[];
const answered: string[] = [];

beforeEach(() => {
  pending = [invitation(1, 'group', 'Походы'), invitation(2, 'channel_admin', 'Новости')];
  answered.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url);
      const answer = path.match(/\/invitations\/(\d+)\/(accept|decline)$/);
      if (answer && init?.method === 'POST') {
        answered.push(`${answer[2]} ${answer[1]}`);
        pending = pending.filter((i) => i.id !== Number(answer[1]));
        return jsonResponse({ ok: true, kind: 'group', place_id: 101 });
      }
      return jsonResponse({ invitations: pending });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const renderList = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <InvitationsList />
    </QueryClientProvider>,
  );

describe('InvitationsList («Приглашения»)', () => {
  it('names who invites where, and accepting or declining sends the answer and drops the row', async () => {
    renderList();
    const section = await screen.findByRole('region', { name: /Приглашения/ });
    const rows = within(section).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Анна приглашает вас в группу «Походы»'),
      expect.stringContaining('Анна предлагает вам стать администратором канала «Новости»'),
    ]);
    await userEvent.click(
      screen.getByRole('button', { name: 'Принять: Анна приглашает вас в группу «Походы»' }),
    );
    expect(answered).toEqual(['accept 1']);
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Отклонить: Анна предлагает вам стать администратором канала «Новости»',
      }),
    );
    expect(answered).toEqual(['accept 1', 'decline 2']);
    // Nothing pending: the section is gone.
    await vi.waitFor(() => expect(screen.queryByRole('region', { name: /Приглашения/ })).toBeNull());
  });
});
