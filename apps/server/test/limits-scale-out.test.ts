import { randomUUID } from 'node:crypto';
import type { SendMessageResult, Story } from '@kadr/contract';
import { apiUrl, mediaRoutes, messengerRoutes, profileRoutes } from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits } from '../src/lib/limits.ts';
import { brightImage } from '../src/modules/media/demo/generate.ts';
import { bearer, registerUser, type TestApp } from './helpers.ts';
import { MEDIA_TEST_ENV, multipart, publish } from './media-helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { openSocket, redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

const hasRedis = await redisReachable('limits scale-out suite');

/** The named limits hold across two nodes sharing Redis: what one node admitted counts on the other. */
describe.runIf(hasRedis)('rate limits on two nodes sharing Redis', () => {
  let nodes: TwoNodes;
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    nodes = await startTwoNodes({
      ...MEDIA_TEST_ENV,
      RATE_LIMITS:
        'comment.create=3/1m,post.action=4/1m,profile.follow=3/1m,search=3/1m,story.like=3/1m,group.create=2/1h,channel.create=2/1h',
    });
    ({ one, two } = nodes);
  }, 240_000);
  afterAll(() => nodes.close());

  /**
   * Both nodes' workers take jobs from the one database, so the node that took an upload may not be the one
   * processing it: wait until neither has a due job left (a post can be liked and commented once it is done).
   */
  async function jobsSettled() {
    for (let i = 0; i < 600; i += 1) {
      await Promise.all([one, two].map((n) => n.app.ctx.media.jobs.idle()));
      const left = await nodes.db.kysely
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', 'in', ['queued', 'running'])
        .where('run_at', '<=', new Date())
        .executeTakeFirstOrThrow();
      if (Number(left.n) === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('jobs still due after 30 s');
  }

  it(`answers 429 with Retry-After after the documented ${defaultLimits['message.send'].count} sends, HTTP and socket alike`, async () => {
    const a = await registerUser(one.app);
    const b = await registerUser(one.app);
    const sendsOn = (t: TestApp) => messenger(t.app);
    const allowed = defaultLimits['message.send'].count;
    const socket = await openSocket(nodes.urlTwo, a.access_token, nodes.sockets);
    const viaSocket = (content: string) =>
      new Promise<SendMessageResult>((resolve) =>
        socket.emit(
          'send-message',
          { other_user_id: b.user.id, content, temp_id: `t-${randomUUID()}` },
          resolve,
        ),
      );
    for (let i = 0; i < allowed; i += 1) {
      if (i % 3 === 2) expect((await viaSocket(`socket ${i}`)).ok).toBe(true);
      else
        expect(
          (await sendsOn(i % 2 === 0 ? one : two).send(a.access_token, b.user.id, `http ${i}`)).statusCode,
        ).toBe(200);
    }
    const refused = await sendsOn(one).send(a.access_token, b.user.id, 'one too many');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'Слишком много попыток. Попробуйте позже',
      code: 'rate_limited',
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const acked = await viaSocket('and over the socket');
    expect(acked).toMatchObject({ ok: false, status: 429, code: 'rate_limited' });
    expect((acked as { retry_after?: number }).retry_after).toBeGreaterThan(0);
    const stored = await messenger(two.app).conversation(b.access_token, a.user.id, { limit: 100 });
    expect(stored.messages).toHaveLength(allowed);
    // Another sender is not affected.
    expect((await sendsOn(two).send(b.access_token, a.user.id, 'reply')).statusCode).toBe(200);
  }, 120_000);

  it('counts every message a forward creates; a forward that would pass the limit creates nothing', async () => {
    const a = await registerUser(one.app);
    const b = await registerUser(one.app);
    const c = await registerUser(one.app);
    const m = messenger(one.app);
    const ids: number[] = [];
    for (let i = 0; i < 30; i += 1) ids.push((await m.sent(a.access_token, b.user.id, `m${i}`)).id);
    const forward = (t: TestApp, messageIds: number[]) =>
      messenger(t.app).call(a.access_token, 'POST', apiUrl(messengerRoutes.forward), {
        message_ids: messageIds,
        targets: [{ chat_user_id: b.user.id }, { chat_user_id: c.user.id }],
      });
    // 30 sent + 2 × 20 would be 70 > 60: refused whole.
    expect((await forward(two, ids.slice(0, 20))).statusCode).toBe(429);
    expect((await messenger(one.app).conversation(c.access_token, a.user.id)).messages).toHaveLength(0);
    // 30 + 2 × 15 = 60 fits exactly; then a single send is one too many.
    expect((await forward(two, ids.slice(0, 15))).statusCode).toBe(200);
    expect((await m.send(a.access_token, c.user.id, 'over')).statusCode).toBe(429);
  });

  it('limits comments, likes, follows and searches by the same table, across nodes', async () => {
    const a = await registerUser(one.app);
    const targets = await Promise.all([1, 2, 3, 4].map(() => registerUser(one.app)));
    const nodeFor = (i: number) => (i % 2 === 0 ? one : two);
    const follow = (i: number) =>
      nodeFor(i).app.inject({
        method: 'POST',
        url: apiUrl(profileRoutes.follow, { username: targets[i]!.user.username }),
        headers: bearer(a.access_token),
      });
    const search = (i: number) =>
      nodeFor(i).app.inject({
        method: 'GET',
        url: apiUrl(profileRoutes.search, undefined, { q: `user${i}` }),
        headers: bearer(a.access_token),
      });
    const post = await publish(one.app, a.access_token, [
      { field: 'files', filename: 'b.jpg', data: await brightImage() },
    ]);
    await jobsSettled();
    const like = (i: number) =>
      nodeFor(i).app.inject({
        method: i % 2 === 0 ? 'POST' : 'DELETE',
        url: apiUrl(mediaRoutes.like, { id: post.id }),
        headers: bearer(a.access_token),
      });
    const comment = (i: number) =>
      nodeFor(i).app.inject({
        method: 'POST',
        url: apiUrl(mediaRoutes.comment, { id: post.id }),
        headers: bearer(a.access_token),
        payload: { comment_text: `комментарий ${i}` },
      });
    const likeCodes = [];
    for (let i = 0; i < 5; i += 1) likeCodes.push((await like(i)).statusCode);
    expect(likeCodes).toEqual([200, 200, 200, 200, 429]);
    for (const [name, act] of [
      ['comment', comment],
      ['follow', follow],
      ['search', search],
    ] as const) {
      const codes = [];
      for (let i = 0; i < 4; i += 1) {
        const status = (await act(i)).statusCode;
        codes.push(status < 300 ? 'ok' : status);
      }
      expect({ name, codes }).toEqual({ name, codes: ['ok', 'ok', 'ok', 429] });
    }
  });

  it('limits story likes and group and channel creation by the same table, across nodes', async () => {
    const a = await registerUser(one.app);
    const owner = await registerUser(one.app);
    const nodeFor = (i: number) => (i % 2 === 0 ? one : two);
    const body = multipart([
      { field: 'file', filename: 's.jpg', contentType: 'image/jpeg', data: await brightImage() },
      { field: 'media_type', data: 'photo' },
    ]);
    const uploaded = await one.app.inject({
      method: 'POST',
      url: apiUrl(storiesRoutes.upload),
      headers: { ...body.headers, ...bearer(owner.access_token) },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const story = (uploaded.json() as { story: Story }).story;
    await jobsSettled();
    const likeCodes = [];
    for (let i = 0; i < 4; i += 1)
      likeCodes.push(
        (
          await nodeFor(i).app.inject({
            method: i % 2 === 0 ? 'POST' : 'DELETE',
            url: apiUrl(storiesRoutes.like, { id: story.id }),
            headers: bearer(a.access_token),
          })
        ).statusCode,
      );
    expect(likeCodes).toEqual([200, 200, 200, 429]);

    for (const [route, extra] of [
      [groupsRoutes.create, {}],
      [channelsRoutes.create, { slug: `ch_${randomUUID().slice(0, 8)}` }],
    ] as const) {
      const codes = [];
      for (let i = 0; i < 3; i += 1)
        codes.push(
          (
            await nodeFor(i).app.inject({
              method: route.method,
              url: apiUrl(route),
              headers: bearer(a.access_token),
              payload: { name: `Комната ${i}`, ...('slug' in extra ? { slug: `${extra.slug}_${i}` } : {}) },
            })
          ).statusCode,
        );
      expect({ path: route.path, codes }).toEqual({ path: route.path, codes: [200, 200, 429] });
    }
  });
});
