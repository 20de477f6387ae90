import fs from 'node:fs';
import path from 'node:path';
import type { AuthSession, HealthResponse, Post } from '@kadr/contract';
import { apiUrl, authRoutes, ErrorCode, healthRoutes, mediaRoutes, messengerRoutes } from '@kadr/contract';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVideo } from '../src/modules/media/demo/generate.ts';
import { findFfmpeg } from '../src/modules/media/processing/ffmpeg.ts';
import { POST_JOB } from '../src/modules/media/processing/post-job.ts';
import { NODE_TTL_MS } from '../src/realtime/presence.ts';
import { type Cluster, HAPROXY, startCluster } from './cluster.ts';
import { tempDir } from './helpers.ts';
import { LIVEKIT_BIN } from './livekit-nodes.ts';
import { s3Available } from './minio.ts';

/**
 * Three nodes behind HAProxy on PostgreSQL + Redis, media on MinIO, two LiveKit nodes on the same Redis; under
 * a steady message load one node is killed with SIGKILL while it processes a video.
 * - Every message a client saw acknowledged is stored exactly once, no answer is a 5xx except the killed node's
 *   in-flight requests, and the sockets that were on it reconnect to the others. Clients resend an
 *   unacknowledged message with the same temp_id, as the web client does; (sender, temp_id) makes it idempotent.
 * - Presence recovers: a user whose socket was on the killed node and who reconnected shows online to a peer,
 *   and offline once that socket closes (the dead node's socket no longer pins them); one who never came back
 *   shows offline once the dead node's heartbeat lapses.
 * - The video job the killed node held is finished by another node once its lease expires: the post is done.
 * Runs in the PostgreSQL + Redis suite (CI: npm run test:server:pg); prints its figures.
 */
const enabled = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
if (enabled && !HAPROXY && process.env.KADR_SKIP_REPORT) {
  fs.appendFileSync(
    process.env.KADR_SKIP_REPORT,
    'cluster-kill.test.ts (HAProxy: apt-get install haproxy)\n',
  );
}
const hasMinio = enabled && s3Available('cluster-kill.test.ts');
const hasLivekit = fs.existsSync(LIVEKIT_BIN);
if (enabled && !hasLivekit && process.env.KADR_SKIP_REPORT) {
  fs.appendFileSync(process.env.KADR_SKIP_REPORT, 'cluster-kill.test.ts (LiveKit: npm run setup:livekit)\n');
}

const PAIRS = 8;
const BEFORE_KILL = 200;
const AFTER_KILL = 200;
/** A job's lease in the cluster: how long after the kill another node may take the video over. */
const LEASE_MS = 8000;
/** Videos uploaded before the kill: one per node (JOBS_CONCURRENCY=1), so the victim holds one. */
const VIDEOS = 3;

describe.skipIf(!enabled || !HAPROXY || !hasMinio || !hasLivekit)(
  'three nodes behind HAProxy, one killed mid-load',
  () => {
    let cluster: Cluster;
    let video: Buffer;
    const sockets: Socket[] = [];
    const work = tempDir('kadr-cluster-kill-');

    beforeAll(async () => {
      const file = await generateVideo(findFfmpeg(), path.join(work, 'v.mp4'), { seconds: 6 });
      video = fs.readFileSync(file);
      cluster = await startCluster({
        minio: true,
        livekit: true,
        env: { JOBS_LEASE_MS: String(LEASE_MS), JOBS_CONCURRENCY: '1' },
      });
    }, 600_000);
    afterAll(async () => {
      for (const s of sockets) s.close();
      await cluster?.stop();
      fs.rmSync(work, { recursive: true, force: true });
    }, 60_000);

    const post = (path: string, body: object, token?: string) =>
      fetch(`${cluster.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });

    const get = async <T>(p: string, token: string): Promise<T> => {
      const res = await fetch(`${cluster.url}${p}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };

    /** A websocket through the balancer that reconnects as the web client does. */
    const openSocket = async (token: string) => {
      const s = connect(cluster.url, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: { token },
        reconnectionDelay: 100,
        reconnectionDelayMax: 500,
        forceNew: true,
      });
      sockets.push(s);
      await new Promise<void>((resolve, reject) => {
        s.once('connect', () => resolve());
        s.once('connect_error', reject);
      });
      return s;
    };

    const presenceSeenBy = (watcher: Socket, userId: number) =>
      new Promise<boolean>((resolve) =>
        watcher.emit('presence:query', [userId], (online: number[]) => resolve(online.includes(userId))),
      );

    it('loses and duplicates no acknowledged message, recovers presence, finishes the dead node’s job', async () => {
      // Every node runs on MinIO and hands out a live LiveKit node.
      for (const node of cluster.nodes) {
        const health = (await (
          await fetch(`http://127.0.0.1:${node.port}${apiUrl(healthRoutes.get)}`)
        ).json()) as HealthResponse;
        expect(health.media_server.status).toBe('ok');
      }

      const users: AuthSession[] = [];
      for (let i = 0; i < PAIRS * 2; i++) {
        const res = await post(apiUrl(authRoutes.register), {
          username: `kill_${i}_${Date.now().toString(36)}`,
          name: 'Узел',
          password: 'correct horse',
        });
        expect(res.status).toBe(201);
        users.push((await res.json()) as AuthSession);
      }
      const receivers = users.slice(PAIRS);
      const victim = cluster.nodes[1]!;

      // Videos that the nodes start processing (one each); the kill waits until the victim holds one.
      /** Video posts and their uploaders (one uploader each: uploads in flight are limited per user). */
      const videoPosts: { id: number; token: string }[] = [];
      const uploadVideo = async () => {
        const uploader = users[videoPosts.length % users.length]!;
        const form = new FormData();
        form.append('caption', `видео ${videoPosts.length}`);
        form.append('files', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'v.mp4');
        const res = await fetch(`${cluster.url}${apiUrl(mediaRoutes.upload)}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${uploader.access_token}` },
          body: form,
        });
        const answer = await res.text();
        // The answer's text names the refusal when it is not 202 (seen once in CI as a bare 400).
        expect(res.status, answer).toBe(202);
        videoPosts.push({ id: (JSON.parse(answer) as { post: Post }).post.id, token: uploader.access_token });
      };
      for (let i = 0; i < VIDEOS; i++) await uploadVideo();

      // Every receiver listens on a websocket through the balancer; so does every sender (the receiver's chat
      // peer, who may see the receiver's presence once they have a chat).
      let reconnects = 0;
      let killedAt: number | null = null;
      /** Receivers whose socket was on the killed node; the first never comes back. */
      const onVictim: number[] = [];
      for (const r of receivers) {
        const s = await openSocket(r.access_token);
        s.io.on('reconnect', () => {
          reconnects += 1;
        });
        s.on('disconnect', (reason) => {
          // The node went away under the socket (not the test closing it).
          if (killedAt === null || reason === 'io client disconnect' || onVictim.includes(r.user.id)) return;
          if (onVictim.length === 0) s.io.reconnection(false);
          onVictim.push(r.user.id);
        });
      }
      const watchers = await Promise.all(users.slice(0, PAIRS).map((u) => openSocket(u.access_token)));
      const watcherOf = (receiverId: number) =>
        watchers[receivers.findIndex((r) => r.user.id === receiverId)]!;

      const acked = new Map<string, number>();
      /** Every failed attempt: HTTP status (0: the connection broke), the node that answered, and whether the
       * request was already in flight when the node was killed. */
      const failures: {
        tempId: string;
        status: number;
        node: string;
        startedAt: number;
        failedAt: number;
      }[] = [];
      /** When the parent saw the killed node's exit: requests begun before it may have reached the node. */
      let diedAt = Number.POSITIVE_INFINITY;
      let ackedAtKill = 0;
      let stop = false;
      /** Sends refused with 429 server_busy and retried (not failures: nothing was accepted). */
      let busy = 0;

      /** The `code` of an error answer; undefined for a body that is not ours (a balancer's page). */
      const codeOf = (body: string): unknown => {
        try {
          return (JSON.parse(body) as { code?: unknown }).code;
        } catch {
          return undefined;
        }
      };
      const sender = async (i: number) => {
        const from = users[i]!;
        const to = receivers[i]!;
        for (let seq = 0; !stop; seq++) {
          const tempId = `kill-${i}-${seq}`;
          for (;;) {
            let res: Response;
            const startedAt = Date.now();
            try {
              res = await post(
                apiUrl(messengerRoutes.send),
                { other_user_id: to.user.id, content: `сообщение ${seq}`, temp_id: tempId },
                from.access_token,
              );
            } catch {
              failures.push({ tempId, status: 0, node: '', startedAt, failedAt: Date.now() });
              continue;
            }
            if (res.status === 200) {
              const { message } = (await res.json()) as { message: { id: number } };
              acked.set(tempId, message.id);
              break;
            }
            const body = await res.text();
            if (res.status === 429) {
              // Backpressure: the database is busy (the kill, the transcodes, the other suites beside). A clean
              // refusal the outbox retries after Retry-After with the same temp_id; so does the test.
              if (codeOf(body) !== ErrorCode.serverBusy) throw new Error(`unexpected 429 ${body}`);
              busy += 1;
              await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
              continue;
            }
            failures.push({
              tempId,
              status: res.status,
              node: res.headers.get('x-kadr-node') ?? '',
              startedAt,
              failedAt: Date.now(),
            });
            if (res.status < 500) throw new Error(`unexpected ${res.status} ${body}`);
            // Not acknowledged: send it again with the same temp_id (the web client's outbox does the same).
          }
          if (killedAt !== null && acked.size >= ackedAtKill + AFTER_KILL) stop = true;
        }
      };

      const db = new pg.Client({ connectionString: cluster.databaseUrl });
      // If the test fails before db.end(), afterAll drops the database under this client: not an uncaught error.
      db.on('error', () => {});
      await db.connect();
      /** The video job the victim runs at the kill. */
      let victimJob: number | null = null;
      const killer = async () => {
        const deadline = Date.now() + 90_000;
        while (killedAt === null) {
          if (Date.now() > deadline) {
            stop = true;
            throw new Error('the killed node never held a video job while messages flowed');
          }
          if (acked.size >= BEFORE_KILL) {
            const { rows } = await db.query<{ id: string }>(
              `select id from jobs where kind = $1 and status = 'running' and locked_by like $2`,
              [POST_JOB, `%:${victim.child.pid}:%`],
            );
            if (!rows[0]) {
              // The victim finished its video early (or another node took two): give it another to hold.
              const queued = await db.query(`select 1 from jobs where kind = $1 and status = 'queued'`, [
                POST_JOB,
              ]);
              if (queued.rows.length === 0 && videoPosts.length < VIDEOS + 6) await uploadVideo();
            } else {
              victimJob = Number(rows[0].id);
              killedAt = Date.now();
              ackedAtKill = acked.size;
              victim.child.once('exit', () => {
                diedAt = Date.now();
              });
              victim.child.kill('SIGKILL');
              break;
            }
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const started = Date.now();
      await Promise.all([killer(), ...Array.from({ length: PAIRS }, (_, i) => sender(i))]);
      const seconds = (Date.now() - started) / 1000;

      // Every socket but the one that was kept away is connected again (those on the killed node moved).
      await Promise.all(
        sockets.map((s) =>
          s.connected || !s.io.reconnection()
            ? Promise.resolve()
            : new Promise<void>((resolve) => s.once('connect', () => resolve())),
        ),
      );

      const { rows } = await db.query<{ id: number; temp_id: string }>(
        `select id, temp_id from messages where temp_id like 'kill-%'`,
      );
      const stored = new Map(rows.map((r) => [r.temp_id, r.id]));
      const lost = [...acked].filter(([t, id]) => stored.get(t) !== id);
      const unacknowledged = [...stored.keys()].filter((t) => !acked.has(t));
      const failed = failures.filter((f) => f.status === 0 || f.status >= 500);
      // Allowed: requests in flight to the killed node when it died (a 502 from it, or the connection breaking).
      const inFlightAtKill = (f: (typeof failures)[number]) =>
        killedAt !== null && f.failedAt >= killedAt && f.startedAt <= diedAt;
      const stray = failed.filter((f) => !inFlightAtKill(f) || (f.node !== '' && f.node !== victim.name));

      // Presence. Whoever was on the killed node and came back shows online to their peer; whoever did not,
      // offline once the dead node's heartbeat lapsed. Then a returned user leaves: offline too, so the socket
      // the dead node held does not keep them online.
      expect(onVictim.length).toBeGreaterThanOrEqual(2);
      const [gone, back, ...others] = onVictim as [number, number, ...number[]];
      const presenceWithin = NODE_TTL_MS + 30_000;
      for (const id of [back, ...others]) {
        await expect.poll(() => presenceSeenBy(watcherOf(id), id), { timeout: presenceWithin }).toBe(true);
      }
      await expect.poll(() => presenceSeenBy(watcherOf(gone), gone), { timeout: presenceWithin }).toBe(false);
      const presenceSettledS = (Date.now() - (killedAt ?? 0)) / 1000;
      sockets[receivers.findIndex((r) => r.user.id === back)]!.close();
      await expect.poll(() => presenceSeenBy(watcherOf(back), back), { timeout: 30_000 }).toBe(false);

      // The job the killed node held is taken over once its lease expires and finished by a live node.
      await expect
        .poll(
          async () => {
            const done = await Promise.all(
              videoPosts.map((v) => get<{ post: Post }>(apiUrl(mediaRoutes.post, { id: v.id }), v.token)),
            );
            return done.map((d) => d.post.status);
          },
          { timeout: 240_000, interval: 1000 },
        )
        .toEqual(videoPosts.map(() => 'done'));
      const job = await db.query<{ status: string; attempts: number }>(
        'select status, attempts from jobs where id = $1',
        [victimJob],
      );
      const jobDoneS = (Date.now() - (killedAt ?? 0)) / 1000;
      await db.end();
      expect(job.rows[0]).toMatchObject({ status: 'done' });
      // Claimed again after the kill: the second attempt (on a live node) finished it.
      expect(job.rows[0]!.attempts).toBeGreaterThanOrEqual(2);

      console.log(
        `[cluster-kill] ${acked.size} acknowledged (${ackedAtKill} before the kill) in ${seconds.toFixed(1)} s ` +
          `(${(acked.size / seconds).toFixed(0)} msg/s), ${rows.length} stored, ` +
          `${busy} refused busy and retried, ${failed.length} failed attempts, all in flight at the kill (${failed.map((f) => `${f.status || 'reset'}@${f.node || '?'}`).join(' ') || 'none'}), ` +
          `${reconnects} socket reconnects; ${onVictim.length} receivers were on the killed node, presence settled ` +
          `${presenceSettledS.toFixed(1)} s after the kill; its video job done on another node ${jobDoneS.toFixed(1)} s after`,
      );
      expect(lost).toEqual([]);
      expect(unacknowledged).toEqual([]);
      expect(rows.length).toBe(acked.size);
      expect(stray).toEqual([]);
      // At most one message per sender was caught by the kill. It may have failed more than once: a retry sent
      // before the node's exit was seen can reach the dying node again (9 resets for 8 senders, once, in CI).
      expect(new Set(failed.map((f) => f.tempId)).size).toBeLessThanOrEqual(PAIRS);
      expect(reconnects).toBeGreaterThan(0);
    }, 420_000);
  },
);
