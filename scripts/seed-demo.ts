// The demo seeder: real photographs and videos made from them, Russian captions, people who follow,
// like, comment and write to each other — all through the public API, so everything goes through the
// real upload pipeline and job worker. When a Kadr server already answers on PORT, or a running server
// holds the embedded DATA_DIR (its lock file names its address), it talks to that server over HTTP (a
// second process must never open the same data directory); otherwise it builds the app in-process on the
// same DATA_DIR / DATABASE_URL as `npm start`. Running it again reuses the users, groups and channels and
// adds the posts and stories again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../apps/server/src/config.ts';
import { findFfmpeg } from '../apps/server/src/modules/media/processing/ffmpeg.ts';
import {
  DEMO_CHANNELS,
  DEMO_FOLLOWS,
  DEMO_GROUPS,
  DEMO_MESSAGES,
  DEMO_POSTS,
  DEMO_STORIES,
  DEMO_USERS,
} from './demo/content.ts';
import { kenBurnsVideo } from './demo/ken-burns.ts';
import { seedTarget } from './demo/seed-target.ts';

const PASSWORD = 'demo-password-2024';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const photos = path.join(root, 'apps/server/test/fixtures/eval-photos');
const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env, JOBS_POLL_MS: '100' });

interface Answer {
  status: number;
  json(): unknown;
}
type Send = (
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer | string,
) => Promise<Answer>;

function overHttp(base: string, why: string) {
  return {
    where: `the running server at ${base} (${why})`,
    async send(method: string, url: string, headers: Record<string, string>, body?: Buffer | string) {
      const res = await fetch(`${base}${url}`, { method, headers, body });
      const text = await res.text();
      return { status: res.status, json: () => (text ? JSON.parse(text) : null) };
    },
    idle: async () => undefined,
    close: async () => undefined,
  };
}

async function connect(): Promise<{
  send: Send;
  idle(): Promise<void>;
  close(): Promise<void>;
  where: string;
}> {
  const target = await seedTarget(config, {
    onWait: (pid) =>
      console.log(`Waiting for the Kadr process holding ${config.dataDir} (PID ${pid}) to answer…`),
  });
  if (target.kind === 'refuse') {
    console.error(target.message);
    process.exit(1);
  }
  if (target.kind === 'http') return overHttp(target.url, target.why);
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { DataDirLockedError } = await import('../apps/server/src/storage/data-dir-lock.ts');
  const app = await buildApp(config).catch((err: unknown) => {
    // Another process (a server on another PORT, a second seeder) holds the embedded database.
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  });
  await app.ready();
  return {
    where: `an in-process server on ${config.dataDir}`,
    async send(method, url, headers, body) {
      const res = await app.inject({ method: method as 'GET', url, headers, payload: body });
      return { status: res.statusCode, json: () => res.json() };
    },
    idle: () => app.ctx.media.jobs.idle(),
    close: () => app.close(),
  };
}

function multipart(fields: Record<string, string>, files: { field: string; name: string; data: Buffer }[]) {
  const boundary = `----kadrdemo${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

const api = await connect();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-demo-'));
const tokens = new Map<string, string>();
const ids = new Map<string, number>();
const auth = (username: string) => ({ authorization: `Bearer ${tokens.get(username)}` });
const json = { 'content-type': 'application/json' };

async function call(method: string, url: string, username: string | null, body?: unknown) {
  const res = await api.send(
    method,
    url,
    { ...(username ? auth(username) : {}), ...(body === undefined ? {} : json) },
    body === undefined ? undefined : JSON.stringify(body),
  );
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.json())}`);
  return res.json() as Record<string, unknown>;
}

try {
  console.log(`Seeding through ${api.where}…`);
  for (const user of DEMO_USERS) {
    const reg = await api.send(
      'POST',
      '/api/v1/auth/register',
      json,
      JSON.stringify({ username: user.username, name: user.name, password: PASSWORD }),
    );
    const session =
      reg.status === 201
        ? reg.json()
        : await call('POST', '/api/v1/auth/login', null, { username: user.username, password: PASSWORD });
    const s = session as { access_token: string; user: { id: number } };
    tokens.set(user.username, s.access_token);
    ids.set(user.username, s.user.id);
    await call('PATCH', '/api/v1/profile', user.username, { name: user.name, bio: user.bio });
    const avatar = multipart({}, [
      { field: 'file', name: user.avatar, data: fs.readFileSync(path.join(photos, user.avatar)) },
    ]);
    const res = await api.send(
      'POST',
      '/api/v1/profile/avatar',
      { ...auth(user.username), 'content-type': avatar.type },
      avatar.body,
    );
    if (res.status !== 200) throw new Error(`avatar ${user.username}: ${res.status}`);
  }
  for (const [follower, followee] of DEMO_FOLLOWS)
    await call('POST', `/api/v1/profile/${followee}/follow`, follower);

  const { ffmpeg } = findFfmpeg();
  const posted: { id: number; spec: (typeof DEMO_POSTS)[number] }[] = [];
  // Posts already there (a second run) are kept, not added again.
  const existing = new Set<string>();
  for (const user of DEMO_USERS) {
    const { posts } = (await call('GET', `/api/v1/media/user/${user.username}?limit=50`, user.username)) as {
      posts: { caption: string }[];
    };
    for (const post of posts) existing.add(`${user.username}\n${post.caption}`);
  }
  for (const spec of DEMO_POSTS) {
    if (existing.has(`${spec.author}\n${spec.caption}`)) continue;
    let files: { field: string; name: string; data: Buffer }[];
    if (spec.video) {
      const out = path.join(work, `${path.parse(spec.video.photo).name}.mp4`);
      await kenBurnsVideo(ffmpeg, path.join(photos, spec.video.photo), out, spec.video);
      files = [{ field: 'files', name: path.basename(out), data: fs.readFileSync(out) }];
    } else {
      files = (spec.photos ?? []).map((p) => ({
        field: 'files',
        name: p,
        data: fs.readFileSync(path.join(photos, p)),
      }));
    }
    const form = multipart({ caption: spec.caption }, files);
    const res = await api.send(
      'POST',
      '/api/v1/media/upload',
      { ...auth(spec.author), 'content-type': form.type },
      form.body,
    );
    if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(res.json())}`);
    const id = (res.json() as { post: { id: number } }).post.id;
    posted.push({ id, spec });
    console.log(`  post ${id} by ${spec.author}: ${spec.caption}`);
  }

  console.log('Processing (transcoding and tagging)…');
  await api.idle();
  const ready = new Set<number>();
  for (const { id, spec } of posted) {
    for (let i = 0; ; i += 1) {
      const res = await api.send('GET', `/api/v1/media/post/${id}`, auth(spec.author));
      if (res.status !== 200) {
        // A job that failed (its reason went to the author) leaves no post: the rest of the feed goes on.
        console.log(`  #${id} not published (${res.status}); run the seeder again to retry it`);
        break;
      }
      const { post } = res.json() as { post: { status: string; ai_tags: string[]; ai_description: string } };
      if (post.status !== 'processing' && post.status !== 'uploading') {
        console.log(`  #${id} ${post.status} [${post.ai_tags.join(', ')}] ${post.ai_description}`);
        if (post.status === 'done') ready.add(id);
        break;
      }
      if (i > 600) throw new Error(`post ${id} still processing after 5 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  for (const { id, spec } of posted) {
    if (!ready.has(id)) continue;
    for (const user of spec.likedBy) await call('POST', `/api/v1/media/post/${id}/like`, user);
    for (const [user, text] of spec.comments)
      await call('POST', `/api/v1/media/post/${id}/comment`, user, { comment_text: text });
  }
  for (const [index, [from, to, text]] of DEMO_MESSAGES.entries()) {
    await call('POST', '/api/v1/messages', from, {
      other_user_id: ids.get(to),
      content: text,
      // Stable per message: a second run finds it sent already (temp_id idempotency) and adds nothing.
      temp_id: `demo-dm-${index}`,
    });
  }
  // Groups: members, an avatar, a conversation with photos. A group that exists already is kept as it is.
  const photoFile = (name: string, field: string) => ({
    field,
    name,
    data: fs.readFileSync(path.join(photos, name)),
  });
  async function upload(username: string, url: string, form: ReturnType<typeof multipart>) {
    const res = await api.send('POST', url, { ...auth(username), 'content-type': form.type }, form.body);
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.json())}`);
    return res.json() as Record<string, unknown>;
  }
  async function say(from: string, target: object, text: string, photo: string | undefined, key: string) {
    const attachment_ids = photo
      ? (
          (await upload(
            from,
            '/api/v1/messages/attachments',
            multipart({}, [photoFile(photo, 'files')]),
          )) as {
            files: { id: number }[];
          }
        ).files.map((f) => f.id)
      : undefined;
    await call('POST', '/api/v1/messages', from, {
      ...target,
      content: text,
      temp_id: `demo-${key}-${Date.now()}`,
      ...(attachment_ids ? { attachment_ids } : {}),
    });
  }
  const owned = async <T extends { name: string }>(username: string, url: string, key: string) =>
    ((await call('GET', url, username)) as Record<string, T[]>)[key] ?? [];
  for (const group of DEMO_GROUPS) {
    const mine = await owned<{ id: number; name: string }>(group.owner, '/api/v1/groups', 'groups');
    if (mine.some((g) => g.name === group.name)) {
      console.log(`  group «${group.name}» is there already`);
      continue;
    }
    const created = (await call('POST', '/api/v1/groups', group.owner, {
      name: group.name,
      description: group.description,
      is_public: group.slug !== null,
      ...(group.slug ? { slug: group.slug } : {}),
      member_ids: group.members.map((u) => ids.get(u)),
    })) as { id: number };
    await upload(
      group.owner,
      `/api/v1/groups/${created.id}/avatar`,
      multipart({}, [photoFile(group.avatar, 'file')]),
    );
    for (const [index, m] of group.messages.entries())
      await say(m.from, { group_id: created.id }, m.text, m.photo, `g${created.id}-${index}`);
    console.log(`  group «${group.name}» (${group.members.length + 1} members)`);
  }
  for (const channel of DEMO_CHANNELS) {
    const mine = await owned<{ id: number; name: string }>(channel.owner, '/api/v1/channels', 'channels');
    if (mine.some((c) => c.name === channel.name)) {
      console.log(`  channel «${channel.name}» is there already`);
      continue;
    }
    const created = (await call('POST', '/api/v1/channels', channel.owner, {
      name: channel.name,
      slug: channel.slug,
      description: channel.description,
    })) as { id: number };
    for (const u of channel.subscribers) await call('POST', `/api/v1/channels/${created.id}/subscribe`, u);
    for (const [index, post] of channel.posts.entries())
      await say(channel.owner, { channel_id: created.id }, post.text, post.photo, `c${created.id}-${index}`);
    console.log(`  channel «${channel.name}» (${channel.subscribers.length} subscribers)`);
  }
  for (const story of DEMO_STORIES) {
    await upload(
      story.author,
      '/api/v1/stories/upload',
      multipart({ caption: story.caption, media_type: 'photo' }, [photoFile(story.photo, 'file')]),
    );
  }
  console.log(`  ${DEMO_STORIES.length} stories`);
  await api.idle();
  console.log(
    `Done. Sign in as ${DEMO_USERS.map((u) => u.username).join(' / ')} with the password "${PASSWORD}".`,
  );
} finally {
  fs.rmSync(work, { recursive: true, force: true });
  await api.close();
}
