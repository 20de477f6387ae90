import { apiUrl, authRoutes, mediaRoutes, messengerRoutes, profileRoutes } from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import type { App, AppContext } from '../../app-types.ts';
import type { GroupsService } from '../groups/service.ts';
import { storeBuffer } from '../media/processing/store.ts';
import type { StoriesService } from '../stories/service.ts';
import {
  DEMO_CHANNELS,
  DEMO_FOLLOWS,
  DEMO_GROUPS,
  DEMO_MESSAGES,
  DEMO_PASSWORD,
  DEMO_POSTS,
  DEMO_STORIES,
  DEMO_USERS,
  DEMO_WELCOME,
  type DemoPost,
} from './content.ts';
import { type DemoManifest, preparedBytes, readManifest } from './manifest.ts';
import type { DemoRepository } from './repository.ts';

/** How long a story is shown (spec: a day). */
const STORY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Posts are spread over the last days, the newest an hour ago, so the feed reads like a real one. */
const POST_SPACING_MS = 5 * 60 * 60 * 1000;

export interface SeedProgress {
  total: number;
  step(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
}

class SeedError extends Error {}

/** Runs `work` over `items` with at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function multipart(fields: Record<string, string>, files: { field: string; name: string; data: Buffer }[]) {
  const boundary = `----kadrdemo${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
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

/** How many progress steps a run has (the bar's denominator). */
export function seedSteps(): number {
  return (
    DEMO_USERS.length + // people
    1 + // follows
    DEMO_POSTS.length +
    DEMO_STORIES.length +
    1 + // likes and comments
    1 + // personal chats
    DEMO_GROUPS.length +
    DEMO_CHANNELS.length +
    1 // avatars
  );
}

/**
 * Seeds the demo through the app's own API (`app.inject`), acting as each demo person with a server-made
 * session, so every rule, counter, cache and notification is the real one; only the posts' media comes
 * prepared (assets/demo: the pipeline's finished variants, stored as they are — no transcoding). Every step is
 * idempotent: people are found by username, posts by author and caption, messages by their stable temp_id,
 * groups and channels by name, stories by author and caption among the live ones. The account that asked
 * (`askerId`) then follows the demo people, joins the group and the channel, and gets a welcome message.
 */
export async function seedDemo(
  app: App,
  ctx: AppContext,
  repo: DemoRepository,
  options: { askerId: number | null; progress: SeedProgress; manifest?: DemoManifest },
) {
  const manifest = options.manifest ?? readManifest();
  const { progress } = options;
  const tokens = new Map<string, string>();
  const ids = new Map<string, number>();
  const sessions: string[] = [];
  const needAvatar: (typeof DEMO_USERS)[number][] = [];
  const stories = (ctx.modules.stories as { service: StoriesService }).service;
  const groupsService = ctx.modules.groups as GroupsService;

  async function send(
    method: string,
    url: string,
    token: string | null,
    body?: unknown,
    form?: ReturnType<typeof multipart>,
  ): Promise<Answer> {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(form
          ? { 'content-type': form.type }
          : body === undefined
            ? {}
            : { 'content-type': 'application/json' }),
      },
      payload: form ? form.body : body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  }
  async function call<T = Record<string, unknown>>(
    method: string,
    url: string,
    user: string | null,
    body?: unknown,
    form?: ReturnType<typeof multipart>,
  ): Promise<T> {
    const res = await send(method, url, user ? (tokens.get(user) ?? null) : null, body, form);
    if (res.status >= 400) throw new SeedError(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  }
  const media = (name: string) => {
    const m = manifest.media[name];
    if (!m) throw new SeedError(`demo media ${name} is not in assets/demo/manifest.json`);
    return m;
  };
  const photoFile = (name: string, field: string) => ({
    field,
    name: `${name}.webp`,
    data: preparedBytes(media(name).feed),
  });

  try {
    // People: found by username (a second run logs in), each with a session of its own for this run.
    await inParallel(DEMO_USERS, 4, async (user) => {
      const reg = await send('POST', apiUrl(authRoutes.register), null, {
        username: user.username,
        name: user.name,
        password: DEMO_PASSWORD,
      });
      const signedIn =
        reg.status === 409
          ? await send('POST', apiUrl(authRoutes.login), null, {
              username: user.username,
              password: DEMO_PASSWORD,
            })
          : reg;
      if (reg.status === 409 && signedIn.status !== 200)
        throw new SeedError(`the username ${user.username} is taken by someone who is not the demo account`);
      if (signedIn.status !== 201 && signedIn.status !== 200)
        throw new SeedError(`register ${user.username}: ${reg.status} ${JSON.stringify(reg.body)}`);
      const session = signedIn.body as { access_token: string; user: { id: number } };
      const userId = session.user.id;
      // The session register or login made ends at once; the run acts with one of its own, ended at its end.
      await ctx.auth.logout(session.access_token);
      const token = await ctx.auth.serverSession(userId, 'kadr demo seeder');
      sessions.push(token);
      tokens.set(user.username, token);
      ids.set(user.username, userId);
      const me = await call<{ bio: string; avatar_url: string | null }>(
        'GET',
        apiUrl(profileRoutes.get, { username: user.username }),
        user.username,
      );
      if (me.bio !== user.bio)
        await call('PATCH', apiUrl(profileRoutes.update), user.username, { name: user.name, bio: user.bio });
      if (!me.avatar_url) needAvatar.push(user);
      await progress.step();
    });
    for (const [follower, followee] of DEMO_FOLLOWS)
      await call('POST', apiUrl(profileRoutes.follow, { username: followee }), follower);
    await progress.step();

    // Posts from the prepared variants: stored content-addressed (a second run stores nothing new), published done.
    const now = Date.now();
    const posted = new Map<DemoPost, number>();
    await inParallel(
      DEMO_POSTS.map((post, index) => ({ post, index })),
      4,
      async ({ post, index }) => {
        const userId = ids.get(post.author) as number;
        const existing = await repo.postId(userId, post.caption);
        if (existing !== null) {
          posted.set(post, existing);
          await progress.step();
          return;
        }
        const files = await Promise.all(
          post.media.map(async (name) => {
            const m = media(name);
            const video = m.kind === 'video';
            const fileKey = await storeBuffer(
              ctx.storage,
              'media',
              preparedBytes(m.feed),
              video ? 'mp4' : 'webp',
            );
            const thumbKey = await storeBuffer(
              ctx.storage,
              'media',
              preparedBytes(video && m.poster ? m.poster : m.thumbnail),
              'webp',
            );
            const screenKey =
              !video && m.screen
                ? await storeBuffer(ctx.storage, 'media', preparedBytes(m.screen), 'webp')
                : null;
            return {
              file_type: video ? ('video' as const) : ('image' as const),
              file_url: ctx.storage.publicUrl(fileKey),
              thumbnail_url: ctx.storage.publicUrl(thumbKey),
              screen_url: screenKey ? ctx.storage.publicUrl(screenKey) : null,
              width: m.width,
              height: m.height,
              duration: m.duration ?? null,
            };
          }),
        );
        const tags = manifest.posts[post.caption];
        if (!tags) throw new SeedError(`no prepared tags for «${post.caption}»: run npm run demo:prepare`);
        const id = await ctx.media.publishReady({
          userId,
          caption: post.caption,
          mediaType: files[0]?.file_type === 'video' ? 'video' : files.length > 1 ? 'carousel' : 'photo',
          createdAt: new Date(now - (DEMO_POSTS.length - index) * POST_SPACING_MS),
          tags: [...(tags.forSleep ? ['for_sleep'] : []), ...tags.tags.filter((t) => t !== 'for_sleep')],
          forSleep: tags.forSleep,
          calmScore: tags.calmScore,
          description: tags.description,
          provider: tags.provider,
          model: tags.model,
          files,
        });
        posted.set(post, id);
        await progress.step();
      },
    );

    // Stories from the prepared 9:16 pictures: once per author and caption among the live ones (a day).
    const liveKeys = await repo.liveStories(new Date(Date.now() - STORY_LIFETIME_MS));
    await inParallel(DEMO_STORIES, 3, async (story) => {
      const userId = ids.get(story.author) as number;
      if (!liveKeys.has(`${userId}\n${story.caption}`)) {
        const m = media(story.media);
        const fileKey = await storeBuffer(ctx.storage, 'stories', preparedBytes(m.feed), 'webp');
        const thumbKey = await storeBuffer(ctx.storage, 'stories', preparedBytes(m.thumbnail), 'webp');
        const screenKey = m.screen
          ? await storeBuffer(ctx.storage, 'stories', preparedBytes(m.screen), 'webp')
          : null;
        await stories.publishReady({
          userId,
          caption: story.caption,
          fileUrl: ctx.storage.publicUrl(fileKey),
          thumbnailUrl: ctx.storage.publicUrl(thumbKey),
          screenUrl: screenKey ? ctx.storage.publicUrl(screenKey) : null,
        });
      }
      await progress.step();
    });

    // The account that asked follows the demo people: its home shows their stories and posts from here on.
    const asker = options.askerId === null ? null : await repo.username(options.askerId);
    if (asker !== null && options.askerId !== null) {
      const token = await ctx.auth.serverSession(options.askerId, 'kadr demo seeder');
      sessions.push(token);
      tokens.set(asker, token);
      for (const user of DEMO_USERS)
        await call('POST', apiUrl(profileRoutes.follow, { username: user.username }), asker);
    }

    // Likes (idempotent by the API) and comments (added once per author and text).
    await inParallel(DEMO_POSTS, 4, async (post) => {
      const id = posted.get(post) as number;
      for (const user of post.likedBy) await call('POST', apiUrl(mediaRoutes.like, { id }), user);
      if (post.comments.length === 0) return;
      const { comments } = await call<{ comments: { user: { username: string }; comment_text: string }[] }>(
        'GET',
        apiUrl(mediaRoutes.comments, { id }, { limit: 100 }),
        post.author,
      );
      const have = new Set(comments.map((c) => `${c.user.username}\n${c.comment_text}`));
      for (const [user, text] of post.comments)
        if (!have.has(`${user}\n${text}`))
          await call('POST', apiUrl(mediaRoutes.comment, { id }), user, { comment_text: text });
    });
    await progress.step();

    // Personal chats. Whoever writes has read what came before (a person replies to what they saw), so a chat
    // whose last message is one's own («Вы: …») never shows an unread badge.
    for (const [index, [from, to, text]] of DEMO_MESSAGES.entries()) {
      await call('POST', apiUrl(messengerRoutes.read), from, { other_user_id: ids.get(to) });
      await call('POST', apiUrl(messengerRoutes.send), from, {
        other_user_id: ids.get(to),
        content: text,
        temp_id: `demo-dm-${index}`,
      });
    }
    await progress.step();

    // Chat photos go through the attachment pipeline like any upload (processed by the job queue after the
    // message is sent); they come last, so the home and the feed are full before.
    async function attachment(from: string, photo: string) {
      const res = await call<{ files: { id: number }[] }>(
        'POST',
        apiUrl(messengerRoutes.attachments),
        from,
        undefined,
        multipart({}, [photoFile(photo, 'files')]),
      );
      return res.files.map((f) => f.id);
    }

    for (const group of DEMO_GROUPS) {
      const { groups } = await call<{ groups: { id: number; name: string; avatar_url?: string | null }[] }>(
        'GET',
        apiUrl(groupsRoutes.list),
        group.owner,
      );
      const found = groups.find((g) => g.name === group.name);
      const id =
        found?.id ??
        (
          await call<{ id: number }>('POST', apiUrl(groupsRoutes.create), group.owner, {
            name: group.name,
            description: group.description,
            is_public: group.slug !== null,
            ...(group.slug ? { slug: group.slug } : {}),
            member_ids: group.members.map((u) => ids.get(u)),
          })
        ).id;
      for (const [index, m] of group.messages.entries()) {
        // Reading first: a member who writes has seen the conversation so far.
        await send('POST', apiUrl(groupsRoutes.read, { id }), tokens.get(m.from) ?? null, {});
        await call('POST', apiUrl(messengerRoutes.send), m.from, {
          group_id: id,
          content: m.text,
          temp_id: `demo-group-${index}`,
          ...(m.photo ? { attachment_ids: await attachment(m.from, m.photo) } : {}),
        });
      }
      if (asker !== null) {
        const res = await send('POST', apiUrl(groupsRoutes.join, { id }), tokens.get(asker) ?? null);
        if (res.status >= 400 && res.status !== 409) throw new SeedError(`join group ${id}: ${res.status}`);
      }
      if (!found?.avatar_url)
        await groupsService.setAvatarVariant(
          ids.get(group.owner) as number,
          id,
          preparedBytes(media(`avatar-${group.avatar}`).feed),
        );
      await progress.step();
    }

    for (const channel of DEMO_CHANNELS) {
      const { channels } = await call<{ channels: { id: number; name: string }[] }>(
        'GET',
        apiUrl(channelsRoutes.list),
        channel.owner,
      );
      const id =
        channels.find((c) => c.name === channel.name)?.id ??
        (
          await call<{ id: number }>('POST', apiUrl(channelsRoutes.create), channel.owner, {
            name: channel.name,
            slug: channel.slug,
            description: channel.description,
          })
        ).id;
      for (const u of [...channel.subscribers, ...(asker !== null ? [asker] : [])])
        await call('POST', apiUrl(channelsRoutes.subscribe, { id }), u);
      for (const [index, post] of channel.posts.entries())
        await call('POST', apiUrl(messengerRoutes.send), channel.owner, {
          channel_id: id,
          content: post.text,
          temp_id: `demo-channel-${index}`,
          ...(post.photo ? { attachment_ids: await attachment(channel.owner, post.photo) } : {}),
        });
      await progress.step();
    }

    if (asker !== null && options.askerId !== null)
      await call('POST', apiUrl(messengerRoutes.send), DEMO_WELCOME.from, {
        other_user_id: options.askerId,
        content: DEMO_WELCOME.text,
        temp_id: `demo-welcome-${options.askerId}`,
      });

    // Avatars from the prepared square variants (the sizes the avatar route makes).
    for (const user of needAvatar) {
      const m = media(`avatar-${user.avatar}`);
      await ctx.profiles.setAvatarVariants(
        ids.get(user.username) as number,
        preparedBytes(m.feed),
        preparedBytes(m.thumbnail),
      );
    }
    await progress.step();
  } finally {
    for (const token of sessions) await ctx.auth.logout(token).catch(() => undefined);
  }
}

export { SeedError };
