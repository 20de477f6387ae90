// The content the Lighthouse bench audits: a signed-in user (Анна) who follows Борис, who posted real
// photographs at a phone camera's size, a carousel, two videos (their posters come from the pipeline) and a
// story; a personal chat with a few messages, a public group and a channel. Everything goes through the
// API and the real media pipeline, as a person's uploads would.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl } from '@kadr/contract/browser';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import sharp from 'sharp';

const photos = path.join(import.meta.dirname, '../apps/server/test/fixtures/eval-photos');

export interface Session {
  access_token: string;
  user: { id: number; username: string; name: string };
}

export interface Seeded {
  me: Session;
  peer: Session;
  storyId: number;
  groupSlug: string;
  channelSlug: string;
}

const auth = (s: Session) => ({ Authorization: `Bearer ${s.access_token}` });

async function ok(answer: Response, what: string): Promise<Response> {
  if (!answer.ok) throw new Error(`${what}: ${answer.status} ${await answer.text()}`);
  return answer;
}

async function register(base: string, prefix: string, name: string): Promise<Session> {
  const answer = await fetch(`${base}${apiUrl(authEndpoints.register)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username: `${prefix}_${Date.now().toString(36)}`,
      name,
      password: 'bench-password-1',
    }),
  });
  return (await (await ok(answer, 'register')).json()) as Session;
}

/**
 * A real photograph (the tagger's evaluation set, Debian packages) brought to a phone camera's frame:
 * 3024×4032 portrait JPEG at quality 90, the size and weight (2–4 MB) a phone uploads.
 */
function phonePhoto(name: string): Promise<Buffer> {
  return sharp(readFileSync(path.join(photos, name)))
    .resize(3024, 4032, { fit: 'cover', kernel: 'lanczos3' })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function upload(
  base: string,
  who: Session,
  files: Array<{ name: string; type: string; data: Buffer }>,
) {
  const form = new FormData();
  const video = files[0]?.type.startsWith('video/');
  form.append('media_type', video ? 'video' : files.length > 1 ? 'carousel' : 'photo');
  form.append('caption', video ? 'Улица утром #город' : 'Снято на телефон #фото');
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  const answer = await fetch(`${base}${apiUrl(mediaEndpoints.upload)}`, {
    method: 'POST',
    headers: auth(who),
    body: form,
  });
  const { post } = (await (await ok(answer, 'upload')).json()) as { post: { id: number } };
  return post.id;
}

async function waitProcessed(base: string, who: Session, id: number) {
  for (let i = 0; i < 3600; i++) {
    const r = await fetch(`${base}${apiUrl(mediaEndpoints.post, { id })}`, { headers: auth(who) });
    const { post } = (await r.json()) as { post: { status: string } };
    if (post.status === 'done') return;
    if (post.status === 'failed') throw new Error(`post ${id} failed processing`);
    await new Promise((res) => setTimeout(res, 500));
  }
  throw new Error(`post ${id} not processed in 30 min`);
}

async function send(base: string, who: Session, target: Record<string, number>, content: string, n: number) {
  await ok(
    await fetch(`${base}${apiUrl(messengerEndpoints.send)}`, {
      method: 'POST',
      headers: { ...auth(who), 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...target, content, temp_id: `lh-${who.user.id}-${n}` }),
    }),
    'send',
  );
}

export async function seed(base: string): Promise<Seeded> {
  const me = await register(base, 'lh_me', 'Анна');
  const peer = await register(base, 'lh_peer', 'Борис');
  await ok(
    await fetch(`${base}${apiUrl(profileEndpoints.follow, { username: peer.user.username })}`, {
      method: 'POST',
      headers: auth(me),
    }),
    'follow',
  );
  const posts: number[] = [];
  // Oldest first: the feed and the grid show the newest first, so a photo leads both.
  for (const video of ['tree.mp4', 'street.mp4'])
    posts.push(
      await upload(base, peer, [
        { name: video, type: 'video/mp4', data: readFileSync(path.join(photos, video)) },
      ]),
    );
  const carousel = await Promise.all(['fruits.jpg', 'flower.jpg', 'china.jpg'].map(phonePhoto));
  posts.push(
    await upload(
      base,
      peer,
      carousel.map((data, i) => ({ name: `IMG_10${i}.jpg`, type: 'image/jpeg', data })),
    ),
  );
  for (const [i, name] of ['astronaut.jpg', 'coffee.jpg', 'chelsea.jpg', 'rocket.jpg', 'home.jpg'].entries())
    posts.push(
      await upload(base, peer, [
        { name: `IMG_20${i}.jpg`, type: 'image/jpeg', data: await phonePhoto(name) },
      ]),
    );
  for (const id of posts) await waitProcessed(base, peer, id);

  const storyForm = new FormData();
  storyForm.append('media_type', 'photo');
  storyForm.append(
    'file',
    new Blob([new Uint8Array(await phonePhoto('butterfly.jpg'))], { type: 'image/jpeg' }),
    'story.jpg',
  );
  const storyAnswer = await ok(
    await fetch(`${base}${apiUrl(storiesEndpoints.upload)}`, {
      method: 'POST',
      headers: auth(peer),
      body: storyForm,
    }),
    'story upload',
  );
  const { story } = (await storyAnswer.json()) as { story: { id: number } };
  for (let i = 0; i < 1200; i++) {
    const r = await fetch(`${base}${apiUrl(storiesEndpoints.get, { id: story.id })}`, { headers: auth(me) });
    if (r.ok) {
      const body = (await r.json()) as { group: { stories: Array<{ id: number; status?: string }> } };
      const s = body.group.stories.find((x) => x.id === story.id);
      if (s && s.status !== 'processing') break;
    }
    await new Promise((res) => setTimeout(res, 500));
  }

  const lines = [
    'Привет! Как дела?',
    'Смотри, какие фото я сделал вчера на прогулке 📷',
    'Отлично! Давай встретимся в субботу?',
    'Давай, в кафе у набережной в 12:00',
    'Договорились 👍',
  ];
  for (const [i, line] of lines.entries())
    await send(
      base,
      i % 2 === 0 ? peer : me,
      { other_user_id: i % 2 === 0 ? me.user.id : peer.user.id },
      line,
      i,
    );

  const groupSlug = `lh_group_${Date.now().toString(36)}`;
  const groupAnswer = await ok(
    await fetch(`${base}${apiUrl(groupsEndpoints.create)}`, {
      method: 'POST',
      headers: { ...auth(me), 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Поход в горы',
        description: 'Планы на выходные',
        is_public: true,
        slug: groupSlug,
        member_ids: [peer.user.id],
      }),
    }),
    'group',
  );
  const group = (await groupAnswer.json()) as { id: number };
  for (const [i, line] of ['Кто едет в субботу?', 'Я еду!', 'Беру палатку'].entries())
    await send(base, i % 2 === 0 ? me : peer, { group_id: group.id }, line, 100 + i);

  const channelSlug = `lh_channel_${Date.now().toString(36)}`;
  const channelAnswer = await ok(
    await fetch(`${base}${apiUrl(channelsEndpoints.create)}`, {
      method: 'POST',
      headers: { ...auth(peer), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Фото дня', slug: channelSlug, description: 'Лучшие снимки' }),
    }),
    'channel',
  );
  const channel = (await channelAnswer.json()) as { id: number };
  await ok(
    await fetch(`${base}${apiUrl(channelsEndpoints.subscribe, { id: channel.id })}`, {
      method: 'POST',
      headers: auth(me),
    }),
    'subscribe',
  );
  await send(base, peer, { channel_id: channel.id }, 'Новая подборка снимков уже в профиле', 200);
  return { me, peer, storyId: story.id, groupSlug, channelSlug };
}
