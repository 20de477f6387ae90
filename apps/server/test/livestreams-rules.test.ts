import type { LiveStream, LiveStreamGuest, LiveStreamToken } from '@kadr/contract';
import { apiUrl } from '@kadr/contract';
import { livestreamsRoutes } from '@kadr/contract/livestreams/routes';
import { TokenVerifier } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { api, fakeRoomService, LK_KEY, LK_SECRET, liveEnv, webhook } from './livestreams-fixtures.ts';

describe('live streams: rules', () => {
  let t: TestApp;
  let room: Awaited<ReturnType<typeof fakeRoomService>>;
  const users: { id: number; token: string; name: string }[] = [];
  const as = (i: number) => api(t.app, users[i]!.token);

  beforeAll(async () => {
    room = await fakeRoomService();
    t = await createTestApp(liveEnv(room.url));
    for (let i = 0; i < 9; i += 1) {
      const s = await registerUser(t.app, undefined, `Пользователь ${i}`);
      users.push({ id: s.user.id, token: s.access_token, name: s.user.name });
    }
  });
  afterAll(async () => {
    await t.close();
    await room.close();
  });

  it('refuses a title of 101 characters and accepts 100', async () => {
    const long = await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'э'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('validation_failed');
    expect((await as(0).get(apiUrl(livestreamsRoutes.active))).json().streams).toHaveLength(0);

    const ok = await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'э'.repeat(100) });
    expect(ok.statusCode, ok.body).toBe(201);
    const stream = ok.json() as LiveStream;
    expect(stream).toMatchObject({
      title: 'э'.repeat(100),
      user_id: users[0]!.id,
      status: 'live',
      viewer_count: 0,
      guests: [],
      room_name: `stream-${stream.id}`,
      user: { id: users[0]!.id, display_name: users[0]!.name, avatar_url: null },
    });
    await as(0).post(apiUrl(livestreamsRoutes.end, { id: stream.id }));
  });

  it('allows one live stream per host: a second start answers 409 naming the running one', async () => {
    const first = (
      await as(1).post(apiUrl(livestreamsRoutes.create), { title: 'Утренний эфир' })
    ).json() as LiveStream;
    const second = await as(1).post(apiUrl(livestreamsRoutes.create), { title: 'Другой' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      error: 'У вас уже идёт эфир «Утренний эфир»',
      code: 'stream_already_live',
      fields: { stream_id: String(first.id) },
    });
    // Another host may start meanwhile, and the first host again once the running one has ended.
    const other = await as(2).post(apiUrl(livestreamsRoutes.create), {});
    expect(other.statusCode).toBe(201);
    expect(other.json().title).toBe('');
    expect((await as(1).post(apiUrl(livestreamsRoutes.end, { id: first.id }))).statusCode).toBe(200);
    const again = await as(1).post(apiUrl(livestreamsRoutes.create), { title: 'Снова' });
    expect(again.statusCode).toBe(201);
    await as(1).post(apiUrl(livestreamsRoutes.end, { id: again.json().id }));
    await as(2).post(apiUrl(livestreamsRoutes.end, { id: other.json().id }));
  });

  it('lists active streams newest first with host, guests and counts; GET one; 404 for unknown', async () => {
    const a = (await as(3).post(apiUrl(livestreamsRoutes.create), { title: 'A' })).json() as LiveStream;
    const b = (await as(4).post(apiUrl(livestreamsRoutes.create), { title: 'B' })).json() as LiveStream;
    const list = await as(5).get(apiUrl(livestreamsRoutes.active, undefined, { limit: 20 }));
    expect(list.statusCode).toBe(200);
    const ids = (list.json().streams as LiveStream[]).map((s) => s.id);
    expect(ids).toEqual([b.id, a.id]);
    expect(
      (await as(5).get(apiUrl(livestreamsRoutes.active, undefined, { limit: 1 }))).json().streams,
    ).toHaveLength(1);
    expect((await as(5).get(apiUrl(livestreamsRoutes.active, undefined, { limit: 21 }))).statusCode).toBe(
      400,
    );
    const one = await as(5).get(apiUrl(livestreamsRoutes.get, { id: a.id }));
    expect(one.json()).toMatchObject({ id: a.id, title: 'A', user: { id: users[3]!.id } });
    expect((await as(5).get(apiUrl(livestreamsRoutes.get, { id: 999999 }))).statusCode).toBe(404);
    await as(3).post(apiUrl(livestreamsRoutes.end, { id: a.id }));
    await as(4).post(apiUrl(livestreamsRoutes.end, { id: b.id }));
  });

  it('lets only the host end, add or remove guests (403 for anyone else)', async () => {
    const s = (await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'Хост' })).json() as LiveStream;
    expect((await as(1).post(apiUrl(livestreamsRoutes.end, { id: s.id }))).statusCode).toBe(403);
    expect(
      (await as(1).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), { user_id: users[2]!.id }))
        .statusCode,
    ).toBe(403);
    expect(
      (await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), { user_id: users[2]!.id }))
        .statusCode,
    ).toBe(201);
    const removeByOther = await as(1).delete(
      apiUrl(livestreamsRoutes.removeGuest, { id: s.id, userId: users[2]!.id }),
    );
    expect(removeByOther.statusCode).toBe(403);
    expect(removeByOther.json().error).toBe('Управлять эфиром может только его автор');
    // Still live with its guest after the refused attempts.
    const after = (await as(1).get(apiUrl(livestreamsRoutes.get, { id: s.id }))).json() as LiveStream;
    expect(after.status).toBe('live');
    expect(after.guests.map((g) => g.user_id)).toEqual([users[2]!.id]);
    await as(0).post(apiUrl(livestreamsRoutes.end, { id: s.id }));
  });

  it('grants each role exactly its rights in the stream room', async () => {
    const verifier = new TokenVerifier(LK_KEY, LK_SECRET);
    const s = (await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'Токены' })).json() as LiveStream;
    await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), { user_id: users[1]!.id });
    const grants = async (i: number) => {
      const res = await as(i).get(apiUrl(livestreamsRoutes.token, { id: s.id }));
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as LiveStreamToken;
      const claims = await verifier.verify(body.access_token);
      return { role: body.role, url: body.server_url, claims };
    };
    const host = await grants(0);
    expect(host.role).toBe('host');
    expect(host.url).toMatch(/^ws:\/\/127\.0\.0\.1:/);
    expect(host.claims.sub).toBe(`user-${users[0]!.id}`);
    expect(host.claims.video).toMatchObject({ room: `stream-${s.id}`, roomJoin: true, canPublish: true });
    expect(host.claims.video?.canPublishSources).toEqual(['camera', 'microphone']);

    const guest = await grants(1);
    expect(guest.role).toBe('guest');
    expect(guest.claims.video).toMatchObject({ canPublish: true, canSubscribe: true, canPublishData: false });
    expect(guest.claims.video?.canPublishSources).toEqual(['microphone']);

    const viewer = await grants(2);
    expect(viewer.role).toBe('viewer');
    expect(viewer.claims.video).toMatchObject({
      canPublish: false,
      canSubscribe: true,
      canPublishData: false,
    });
    expect(viewer.claims.video?.canPublishSources).toBeUndefined();
    expect(viewer.claims.name).toBe(users[2]!.name);

    // A removed guest is a viewer again.
    await as(0).delete(apiUrl(livestreamsRoutes.removeGuest, { id: s.id, userId: users[1]!.id }));
    expect((await grants(1)).role).toBe('viewer');
    await as(0).post(apiUrl(livestreamsRoutes.end, { id: s.id }));
  });

  it('caps guests at 5 and refuses duplicates with the exact messages; updates grants in the room', async () => {
    const s = (await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'Гости' })).json() as LiveStream;
    room.calls.length = 0;
    for (let i = 1; i <= 5; i += 1) {
      const res = await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), {
        user_id: users[i]!.id,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json() as LiveStreamGuest).toMatchObject({
        user_id: users[i]!.id,
        user: { id: users[i]!.id, display_name: users[i]!.name },
      });
    }
    const duplicate = await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), {
      user_id: users[3]!.id,
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error).toBe('Этот пользователь уже является гостем');
    const sixth = await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), {
      user_id: users[6]!.id,
    });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().error).toBe('Максимальное количество гостей: 5');
    expect(
      ((await as(6).get(apiUrl(livestreamsRoutes.get, { id: s.id }))).json() as LiveStream).guests,
    ).toHaveLength(5);

    // Each add changed the participant's grant in place: microphone only.
    const updates = room.calls.filter((c) => c.method === 'UpdateParticipant');
    expect(updates.map((c) => c.body.identity)).toEqual([1, 2, 3, 4, 5].map((i) => `user-${users[i]!.id}`));
    expect(updates[0]!.body).toMatchObject({
      room: `stream-${s.id}`,
      permission: {
        canPublish: true,
        canSubscribe: true,
        canPublishSources: ['MICROPHONE'],
      },
      attributes: { 'kadr.role': 'guest' },
    });
    // Data stays off (protobuf JSON leaves a false field out): the chat goes through the server.
    expect(updates[0]!.body.permission).not.toHaveProperty('canPublishData', true);

    // Removing revokes publishing in the room, and frees a place.
    room.calls.length = 0;
    const removed = await as(0).delete(
      apiUrl(livestreamsRoutes.removeGuest, { id: s.id, userId: users[2]!.id }),
    );
    expect(removed.statusCode).toBe(204);
    const revoke = room.calls.find((c) => c.method === 'UpdateParticipant');
    expect(revoke?.body).toMatchObject({
      identity: `user-${users[2]!.id}`,
      attributes: { 'kadr.role': 'viewer' },
    });
    expect((revoke!.body.permission as { canPublish?: boolean }).canPublish ?? false).toBe(false);
    expect(
      (await as(0).delete(apiUrl(livestreamsRoutes.removeGuest, { id: s.id, userId: users[2]!.id })))
        .statusCode,
    ).toBe(404);

    // The removed guest reconnects with the guest token it kept: made a viewer again on arrival. A
    // current guest joining keeps its microphone (no change sent).
    room.calls.length = 0;
    await webhook(t.app, 'participant_joined', `stream-${s.id}`, {
      sid: 'PA_g3',
      identity: `user-${users[3]!.id}`,
      role: 'guest',
    });
    await webhook(t.app, 'participant_joined', `stream-${s.id}`, {
      sid: 'PA_g2',
      identity: `user-${users[2]!.id}`,
      role: 'guest',
    });
    // (The webhook answers after its listeners ran.)
    expect(
      room.calls
        .filter((c) => c.method === 'UpdateParticipant')
        .map((c) => [c.body.identity, c.body.attributes]),
    ).toEqual([[`user-${users[2]!.id}`, { 'kadr.role': 'viewer' }]]);
    expect(
      (await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), { user_id: users[6]!.id }))
        .statusCode,
    ).toBe(201);

    // The host is not a guest; unknown users are not found.
    expect(
      (await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), { user_id: users[0]!.id }))
        .statusCode,
    ).toBe(400);
    expect(
      (await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), { user_id: 99_999 })).statusCode,
    ).toBe(404);
    await as(0).post(apiUrl(livestreamsRoutes.end, { id: s.id }));
  });

  it('ending closes the room; an ended stream answers 404 to token and viewer-join and leaves the list', async () => {
    const s = (await as(7).post(apiUrl(livestreamsRoutes.create), { title: 'Конец' })).json() as LiveStream;
    expect((await as(8).get(apiUrl(livestreamsRoutes.token, { id: s.id }))).statusCode).toBe(200);
    room.calls.length = 0;
    const end = await as(7).post(apiUrl(livestreamsRoutes.end, { id: s.id }));
    expect(end.statusCode).toBe(200);
    expect(end.json().stream).toMatchObject({ id: s.id, status: 'ended', viewer_count: 0 });
    expect(end.json().stream.ended_at).not.toBeNull();
    expect(room.calls).toEqual([{ method: 'DeleteRoom', body: { room: `stream-${s.id}` } }]);

    const token = await as(8).get(apiUrl(livestreamsRoutes.token, { id: s.id }));
    expect(token.statusCode).toBe(404);
    expect(token.json().error).toBe('Эфир не найден');
    expect((await as(7).get(apiUrl(livestreamsRoutes.token, { id: s.id }))).statusCode).toBe(404);
    expect((await as(8).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))).statusCode).toBe(404);
    expect(
      (await as(7).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), { user_id: users[8]!.id }))
        .statusCode,
    ).toBe(404);
    const ids = ((await as(8).get(apiUrl(livestreamsRoutes.active))).json().streams as LiveStream[]).map(
      (x) => x.id,
    );
    expect(ids).not.toContain(s.id);
    // Ending twice is harmless and does not close the room again.
    expect((await as(7).post(apiUrl(livestreamsRoutes.end, { id: s.id }))).statusCode).toBe(200);
    expect(room.calls).toHaveLength(1);
  });

  it('needs a session for every route', async () => {
    for (const [method, url] of [
      ['GET', apiUrl(livestreamsRoutes.active)],
      ['POST', apiUrl(livestreamsRoutes.create)],
      ['GET', apiUrl(livestreamsRoutes.token, { id: 1 })],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });
});
