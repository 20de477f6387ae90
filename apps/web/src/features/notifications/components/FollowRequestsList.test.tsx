import type { UserSummary } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';
import { FollowRequestsList } from './FollowRequestsList.tsx';

const person = (id: number, name: string): UserSummary => ({
  id,
  username: `user${id}`,
  name,
  avatar_url: null,
  avatar_thumbnail_url: null,
});

let pending: UserSummary[];
const answered: string[] = [];

beforeEach(() => {
  pending = [person(1, 'Анна'), person(2, 'Борис')];
  answered.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(String(url), 'http://localhost').pathname;
      const answer = path.match(/\/profile\/follow-requests\/(\w+)$/);
      if (answer) {
        const accept = init?.method === 'POST';
        answered.push(`${accept ? 'accept' : 'decline'} ${answer[1]}`);
        pending = pending.filter((u) => u.username !== answer[1]);
        return jsonResponse({ accepted: accept, followers_count: accept ? 1 : 0 });
      }
      return jsonResponse({ users: pending, has_more: false });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('FollowRequestsList («Заявки на подписку»)', () => {
  it('names who asks; accepting or declining sends the answer and drops the row', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <FollowRequestsList />
      </QueryClientProvider>,
    );
    const region = await screen.findByRole('region', { name: /^Заявки на подписку/ });
    expect(within(region).getAllByRole('listitem')).toHaveLength(2);
    expect(within(region).getByText('Анна (@user1) хочет подписаться на вас')).toBeTruthy();

    await userEvent.click(within(region).getByRole('button', { name: /^Принять: Анна/ }));
    await waitFor(() => expect(within(region).getAllByRole('listitem')).toHaveLength(1));
    await userEvent.click(within(region).getByRole('button', { name: /^Отклонить: Борис/ }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /^Заявки на подписку/ })).toBeNull());
    expect(answered).toEqual(['accept user1', 'decline user2']);
  });
});
