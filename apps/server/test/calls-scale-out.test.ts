import type { Call } from '@kadr/contract';
import { apiUrl } from '@kadr/contract';
import { callsRoutes } from '@kadr/contract/calls/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callEvent, callsClient, collect, eventually, startCall } from './calls-fixtures.ts';
import { registerUser } from './helpers.ts';
import { openSocket, redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

const hasRedis = await redisReachable('calls scale-out suite');

const ENV = {
  CALL_RING_TIMEOUT_MS: '2000',
  CALL_RECONNECT_GRACE_MS: '300',
  CALL_SWEEP_MS: '50',
};

describe.runIf(hasRedis)('calls on two nodes sharing Redis and the database', () => {
  let nodes: TwoNodes;
  beforeAll(async () => {
    nodes = await startTwoNodes(ENV);
  });
  afterAll(() => nodes.close());

  const device = (base: string, token: string) => openSocket(base, token, nodes.sockets);

  it('rings the callee on both nodes; accepts race across nodes and exactly one wins; the call is served by either node', async () => {
    const one = callsClient(nodes.one.app);
    const two = callsClient(nodes.two.app);
    const a = await registerUser(nodes.one.app);
    const b = await registerUser(nodes.two.app);
    const a1 = await device(nodes.urlOne, a.access_token);
    const bOnOne = await device(nodes.urlOne, b.access_token);
    const bOnTwo = await device(nodes.urlTwo, b.access_token);

    const call = await startCall(nodes.one.app, a, b, { socket_id: a1.id });
    await Promise.all([
      callEvent(bOnOne, 'call-incoming', call.id),
      callEvent(bOnTwo, 'call-incoming', call.id),
    ]);

    const acceptedAtA = callEvent(a1, 'call-accepted', call.id);
    const answers = await Promise.all([
      one.act(b, call.id, 'accept', { socket_id: bOnOne.id }),
      two.act(b, call.id, 'accept', { socket_id: bOnTwo.id }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    await acceptedAtA;

    // Each side reports from a different node; the second report makes it active wherever it lands.
    await one.act(a, call.id, 'connected');
    const activeAtA = callEvent(a1, 'call-active', call.id);
    expect((await two.act(b, call.id, 'connected')).json()).toMatchObject({ state: 'active' });
    await activeAtA;
    // Every node looks for sockets on no node (a killed node's): each side's socket, on the other node,
    // is found through Redis, so the call stays up past several grace periods.
    await new Promise((r) => setTimeout(r, 1200));
    expect((await one.get(a, apiUrl(callsRoutes.get, { id: call.id }))).json()).toMatchObject({
      state: 'active',
    });

    const endedAtA = collect(a1, 'call-ended');
    const ends = await Promise.all([one.act(a, call.id, 'end'), two.act(b, call.id, 'end')]);
    expect(ends.map((r) => (r.json() as Call).state)).toEqual(['ended', 'ended']);
    await eventually(async () => expect(endedAtA).toHaveLength(1));
    expect(await two.entries(a, b)).toHaveLength(1);
  });

  it('missed once, although both nodes sweep: one event per device, one chat entry', async () => {
    const a = await registerUser(nodes.one.app);
    const b = await registerUser(nodes.two.app);
    const a1 = await device(nodes.urlOne, a.access_token);
    const b2 = await device(nodes.urlTwo, b.access_token);
    const missedAtA = collect(a1, 'call-missed');
    const missedAtB = collect(b2, 'call-missed');
    const call = await startCall(nodes.two.app, a, b);
    await eventually(async () => {
      expect(missedAtA).toHaveLength(1);
      expect(missedAtB).toHaveLength(1);
    });
    await new Promise((r) => setTimeout(r, 300)); // several more sweeps on both nodes
    expect(missedAtA).toHaveLength(1);
    expect(missedAtB.map((e) => e.call.id)).toEqual([call.id]);
    expect(await callsClient(nodes.one.app).entries(a, b)).toEqual(['Исходящий видеозвонок · нет ответа']);
  });

  it('a caller whose socket on node one drops while ringing is cancelled (by whichever node sweeps)', async () => {
    const a = await registerUser(nodes.one.app);
    const b = await registerUser(nodes.two.app);
    const a1 = await device(nodes.urlOne, a.access_token);
    const b2 = await device(nodes.urlTwo, b.access_token);
    const call = await startCall(nodes.two.app, a, b, { socket_id: a1.id });
    const cancelled = callEvent(b2, 'call-cancelled', call.id, 4000);
    a1.disconnect();
    expect((await cancelled).call.end_reason).toBe('cancelled');
  });
});
