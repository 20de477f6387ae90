import { apiUrl, moderationRoutes, type QueueResponse } from '@kadr/contract';
import { expect } from 'vitest';
import type { App } from '../src/app-types.ts';
import { bearer, registerUser, uniqueUsername } from './helpers.ts';

/** A registered user as the moderation suites use one: the token, the id and the session itself. */
export interface Person {
  token: string;
  id: number;
  username: string;
  access_token: string;
}

/**
 * A moderation suite's requests on one app, with the moderator's token read when each call runs (the suites
 * register the moderator in their beforeAll): people, reports, the queue entry of a report on an account, and
 * moderator actions, each expecting the answer a working server gives.
 */
export function moderationApi(app: () => App, moderatorToken: () => string) {
  const call = (token: string | null, method: 'GET' | 'POST', url: string, payload?: object) =>
    app().inject({
      method,
      url,
      ...(token ? { headers: bearer(token) } : {}),
      ...(payload ? { payload } : {}),
    });
  const report = (who: Person, kind: string, targetId: number) =>
    call(who.token, 'POST', apiUrl(moderationRoutes.report), { kind, target_id: targetId, reason: 'spam' });
  const api = {
    call,
    report,
    async person(prefix: string): Promise<Person> {
      const s = await registerUser(app(), uniqueUsername(prefix), 'Участник');
      return {
        token: s.access_token,
        id: s.user.id,
        username: s.user.username,
        access_token: s.access_token,
      };
    },
    /** The queue entry of a report on the person's account, as a moderator sees it. */
    async accountEntry(who: Person, reporter: Person): Promise<number> {
      expect((await report(reporter, 'user', who.id)).statusCode).toBe(200);
      const q = (await call(moderatorToken(), 'GET', apiUrl(moderationRoutes.queue))).json() as QueueResponse;
      const item = q.items.find((i) => i.kind === 'user' && i.target_id === who.id);
      if (!item) throw new Error('no queue entry');
      return item.id;
    },
    async act(itemId: number, body: object): Promise<void> {
      const res = await call(moderatorToken(), 'POST', apiUrl(moderationRoutes.act, { id: itemId }), body);
      expect(res.statusCode).toBe(200);
    },
    /** Suspends `who` for a week as a moderator does (a report on the account, then «suspend»); answers the entry. */
    async suspend(who: Person, reporter: Person): Promise<number> {
      const itemId = await api.accountEntry(who, reporter);
      await api.act(itemId, { action: 'suspend', days: 7, reason: 'спам' });
      return itemId;
    },
  };
  return api;
}
