import type { AuthSession, ServerToClientEvents, Story, StoryEvent } from '@kadr/contract';
import { apiUrl, profileRoutes } from '@kadr/contract';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brightImage } from '../src/modules/media/demo/generate.ts';
import type { StoriesServices } from '../src/modules/stories/module.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { MEDIA_TEST_ENV, upload as uploadTo } from './media-helpers.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

/**
 * Issue 11 (realtime): story-created reaches the uploader's devices; story-ready (when ready) and
 * story-deleted reach the owner and their followers, so strips update without a reload. Someone the
 * owner follows but who does not follow back is a stranger to these events.
 */

type StoryEventName = 'story-created' | 'story-ready' | 'story-deleted';
const EVENTS: StoryEventName[] = ['story-created', 'story-ready', 'story-deleted'];

let t: TestApp;
let url: string;
let image: Buffer;
let owner: AuthSession;
let follower: AuthSession;
let stranger: AuthSession;
const open: ClientSocket[] = [];

type Heard = { event: StoryEventName; payload: StoryEvent }[];

/** Every story event a socket hears, in order. */
function record(socket: ClientSocket) {
  const heard: Heard = [];
  for (const event of EVENTS)
    socket.on(
      event as keyof ServerToClientEvents,
      ((payload: StoryEvent) => heard.push({ event, payload })) as never,
    );
  return heard;
}

/**
 * Waits until everything the server emitted to `user` before now has arrived on `socket`: packets to one
 * socket keep their order, so once a marker sent after the action arrives, a leaked event would have too.
 */
async function drained(socket: ClientSocket, user: AuthSession) {
  const marker = -Math.floor(Math.random() * 1e9) - 1;
  const arrived = nextEvent<StoryEvent>(socket, 'story-deleted', (e) => e.story_id === marker);
  t.app.ctx.gateway.emitToUser(user.user.id, 'story-deleted', {
    story_id: marker,
    user_id: user.user.id,
    status: 'ready',
  });
  await arrived;
}

const about = (heard: Heard, storyId: number) => heard.filter((h) => h.payload.story_id === storyId);

async function follow(who: AuthSession, whom: AuthSession) {
  const res = await t.app.inject({
    method: 'POST',
    url: apiUrl(profileRoutes.follow, { username: whom.user.username }),
    headers: bearer(who.access_token),
  });
  expect(res.statusCode).toBe(200);
}

async function upload(token: string): Promise<Story> {
  const res = await uploadTo(
    t.app,
    token,
    [
      { field: 'file', filename: 's.jpg', contentType: 'image/jpeg', data: image },
      { field: 'media_type', data: 'photo' },
    ],
    apiUrl(storiesRoutes.upload),
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { story: Story }).story;
}

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  image = await brightImage();
  owner = await registerUser(t.app, undefined, 'Анна');
  follower = await registerUser(t.app, undefined, 'Борис');
  stranger = await registerUser(t.app, undefined, 'Вера');
  await follow(follower, owner);
  // The owner follows the stranger: the audience is the owner's followers, not the people they follow.
  await follow(owner, stranger);
}, 240_000);

afterAll(async () => {
  for (const s of open) s.disconnect();
  await t?.close();
});

describe('story events over the socket', () => {
  it('created reaches the owner; ready and deleted reach the owner and followers; a stranger hears none', async () => {
    const ownerPhone = await openSocket(url, owner.access_token, open);
    const ownerLaptop = await openSocket(url, owner.access_token, open);
    const followerSocket = await openSocket(url, follower.access_token, open);
    const strangerSocket = await openSocket(url, stranger.access_token, open);
    const ownerHeard = record(ownerPhone);
    const followerHeard = record(followerSocket);
    const strangerHeard = record(strangerSocket);

    // Created: every device of the uploader, while the story is processing.
    const createdOnPhone = nextEvent<StoryEvent>(ownerPhone, 'story-created', undefined, 20_000);
    const createdOnLaptop = nextEvent<StoryEvent>(ownerLaptop, 'story-created', undefined, 20_000);
    const readyOnOwner = nextEvent<StoryEvent>(ownerPhone, 'story-ready', undefined, 60_000);
    const readyOnFollower = nextEvent<StoryEvent>(followerSocket, 'story-ready', undefined, 60_000);
    const story = await upload(owner.access_token);
    const created = { story_id: story.id, user_id: owner.user.id, status: 'processing' };
    expect(await createdOnPhone).toEqual(created);
    expect(await createdOnLaptop).toEqual(created);

    // Ready: the owner and the follower, once the job queue has made the output.
    const ready = { story_id: story.id, user_id: owner.user.id, status: 'ready' };
    expect(await readyOnOwner).toEqual(ready);
    expect(await readyOnFollower).toEqual(ready);

    // Deleted: the owner and the follower.
    const deletedOnOwner = nextEvent<StoryEvent>(ownerPhone, 'story-deleted', (e) => e.story_id === story.id);
    const deletedOnFollower = nextEvent<StoryEvent>(
      followerSocket,
      'story-deleted',
      (e) => e.story_id === story.id,
    );
    const res = await t.app.inject({
      method: 'DELETE',
      url: apiUrl(storiesRoutes.remove, { id: story.id }),
      headers: bearer(owner.access_token),
    });
    expect(res.statusCode).toBe(200);
    expect((await deletedOnOwner).user_id).toBe(owner.user.id);
    expect((await deletedOnFollower).user_id).toBe(owner.user.id);

    await drained(ownerPhone, owner);
    await drained(followerSocket, follower);
    await drained(strangerSocket, stranger);
    expect(about(ownerHeard, story.id).map((h) => h.event)).toEqual([
      'story-created',
      'story-ready',
      'story-deleted',
    ]);
    // A follower hears of a story once it is ready (a processing story is not theirs to see).
    expect(about(followerHeard, story.id).map((h) => h.event)).toEqual(['story-ready', 'story-deleted']);
    expect(about(strangerHeard, story.id)).toEqual([]);
  }, 90_000);

  it('a failed story is told to its owner only', async () => {
    const ownerSocket = await openSocket(url, owner.access_token, open);
    const followerSocket = await openSocket(url, follower.access_token, open);
    const followerHeard = record(followerSocket);
    const storyId = 987_654;
    const failed = nextEvent<StoryEvent>(ownerSocket, 'story-ready', (e) => e.story_id === storyId);
    await (t.app.ctx.modules.stories as StoriesServices).service.finished(storyId, owner.user.id, 'failed');
    expect(await failed).toEqual({ story_id: storyId, user_id: owner.user.id, status: 'failed' });
    await drained(followerSocket, follower);
    expect(about(followerHeard, storyId)).toEqual([]);
  });
});
