import { randomUUID } from 'node:crypto';
import type { Call, GroupsResponse, Story } from '@kadr/contract';
import { apiUrl } from '@kadr/contract';
import { callsRoutes } from '@kadr/contract/calls/routes';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { voiceRoutes } from '@kadr/contract/voice/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits } from '../src/lib/limits.ts';
import { brightImage } from '../src/modules/media/demo/generate.ts';
import { callsClient } from './calls-fixtures.ts';
import { chats } from './groups-fixtures.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { fakeRoomService, liveEnv } from './livestreams-fixtures.ts';
import { MEDIA_TEST_ENV, multipart } from './media-helpers.ts';

/**
 * The limits of stories, calls, voice chats, groups and channels go through the one named limiter:
 * refused with 429, `Retry-After` and `{ error, code }` after the count in `defaultLimits` (the README's
 * table), overridable by `RATE_LIMITS`. The two-node case is in limits-scale-out.test.ts.
 */
describe('named limits of the later capabilities', () => {
  let t: TestApp;
  let room: Awaited<ReturnType<typeof fakeRoomService>>;

  beforeAll(async () => {
    room = await fakeRoomService();
    t = await createTestApp(
      liveEnv(room.url, {
        ...MEDIA_TEST_ENV,
        RATE_LIMITS: 'story.upload=2/1h,call.start=2/10m,voice.join=2/10m,message.send=2/1m',
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await room?.close();
  });

  const call = (token: string, method: 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  function expectLimited(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ error: 'Слишком много попыток. Попробуйте позже', code: 'rate_limited' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  }

  async function uploadStory(token: string) {
    const body = multipart([
      { field: 'file', filename: 's.jpg', contentType: 'image/jpeg', data: await brightImage() },
      { field: 'media_type', data: 'photo' },
    ]);
    return t.app.inject({
      method: 'POST',
      url: apiUrl(storiesRoutes.upload),
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
  }

  it(`story likes answer 429 after the documented ${defaultLimits['story.like'].count} per minute; replies count as sends`, async () => {
    const owner = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const first = await uploadStory(owner.access_token);
    expect(first.statusCode, first.body).toBe(200);
    const story = (first.json() as { story: Story }).story;
    await t.app.ctx.media.jobs.idle();
    // story.upload is 2 here: the third upload is refused and stores no story.
    expect((await uploadStory(owner.access_token)).statusCode).toBe(200);
    expectLimited(await uploadStory(owner.access_token));
    await t.app.ctx.media.jobs.idle();

    const allowed = defaultLimits['story.like'].count;
    for (let i = 0; i < allowed; i += 1) {
      const res = await call(
        fan.access_token,
        i % 2 === 0 ? 'POST' : 'DELETE',
        apiUrl(storiesRoutes.like, { id: story.id }),
      );
      expect(res.statusCode, `like ${i}: ${res.body}`).toBe(200);
    }
    expectLimited(await call(fan.access_token, 'POST', apiUrl(storiesRoutes.like, { id: story.id })));
    // Another user has an allowance of their own.
    const other = await registerUser(t.app);
    expect(
      (await call(other.access_token, 'POST', apiUrl(storiesRoutes.like, { id: story.id }))).statusCode,
    ).toBe(200);

    // A reply is a message: it counts against message.send (2 here).
    const reply = (n: number) =>
      call(fan.access_token, 'POST', apiUrl(storiesRoutes.reply, { id: story.id }), {
        content: `ответ ${n}`,
        temp_id: `r-${randomUUID()}`,
      });
    expect((await reply(1)).statusCode).toBe(200);
    expect((await reply(2)).statusCode).toBe(200);
    expectLimited(await reply(3));
  }, 120_000);

  it(`group and channel creation answer 429 after the documented ${defaultLimits['group.create'].count} per hour`, async () => {
    const a = await registerUser(t.app);
    const c = chats(t.app);
    for (let i = 0; i < defaultLimits['group.create'].count; i += 1)
      await c.createGroup(a.access_token, { name: `Группа ${i}` });
    const refused = await c.call(a.access_token, 'POST', apiUrl(groupsRoutes.create), { name: 'Лишняя' });
    expectLimited(refused);
    // Nothing was created by the refused request.
    const list = (await c.call(a.access_token, 'GET', apiUrl(groupsRoutes.list))).json() as GroupsResponse;
    expect(list.groups).toHaveLength(defaultLimits['group.create'].count);

    const tag = randomUUID().slice(0, 8);
    for (let i = 0; i < defaultLimits['channel.create'].count; i += 1)
      await c.createChannel(a.access_token, { name: `Канал ${i}`, slug: `ch_${tag}_${i}` });
    expectLimited(
      await c.call(a.access_token, 'POST', apiUrl(channelsRoutes.create), {
        name: 'Лишний',
        slug: `ch_${tag}_x`,
      }),
    );
  });

  it('call starts answer 429 past their limit', async () => {
    const [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const calls = callsClient(t.app);
    for (let i = 0; i < 2; i += 1) {
      const res = await calls.start(a, { user_id: b.user.id, kind: 'audio' });
      expect(res.statusCode, res.body).toBe(200);
      expect((await calls.act(a, (res.json() as Call).id, 'end')).statusCode).toBe(200);
    }
    expectLimited(await calls.start(a, { user_id: b.user.id, kind: 'audio' }));
    expect((await calls.get(b, apiUrl(callsRoutes.current))).json()).toEqual({ call: null });
  });

  it('voice chat joins answer 429 past their limit', async () => {
    const a = await registerUser(t.app);
    const c = chats(t.app);
    const g = await c.createGroup(a.access_token, { name: 'Голос' });
    for (let i = 0; i < 2; i += 1) {
      expect((await call(a.access_token, 'POST', apiUrl(voiceRoutes.join, { id: g.id }))).statusCode).toBe(
        200,
      );
      expect((await call(a.access_token, 'POST', apiUrl(voiceRoutes.leave, { id: g.id }))).statusCode).toBe(
        200,
      );
    }
    expectLimited(await call(a.access_token, 'POST', apiUrl(voiceRoutes.join, { id: g.id })));
  });
});
