import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import {
  ErrorCode,
  ErrorText,
  type MessageStoryRef,
  type Story,
  StoryErrorText,
  type StoryGroup,
  StoryLimits,
  type StoryReportReason,
  StoryUploadFields,
} from '@kadr/contract';
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { AppContext } from '../../app-types.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, errors } from '../../lib/errors.ts';
import type { FeedViewer } from '../media/feed-ranking.ts';
import { probe } from '../media/processing/ffmpeg.ts';
import { readRepository } from '../media/read-repository.ts';
import { toPost } from '../media/render.ts';
import { receiveUpload } from '../media/upload/receive.ts';
import { sniffFile } from '../media/upload/sniff.ts';
import type { StoriesCache } from './cache.ts';
import { EXPIRE_JOB, PROCESS_JOB, type ProcessPayload } from './jobs.ts';
import { toGroups, toStory, toStoryUser } from './mappers.ts';
import type { StoriesRepository, StoryRow } from './repository.ts';
import { parseStoryTexts } from './texts.ts';

export interface Clock {
  now(): Date;
}

const notFound = () => errors.notFound(StoryErrorText.notFound);

/** Parses a number field; absent or blank → the default, garbage → 400. */
function numberField(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw errors.validation({ [name]: ErrorText.validationFailed });
  return n;
}

export const clampDuration = (seconds: number) =>
  Math.min(StoryLimits.maxDurationS, Math.max(StoryLimits.minDurationS, seconds));

/** Who may do what with stories; a story older than 24 h (by the clock) is absent from every answer. */
export function storiesService(deps: {
  ctx: Pick<
    AppContext,
    'db' | 'storage' | 'config' | 'media' | 'messenger' | 'profiles' | 'gateway' | 'settings' | 'limits'
  >;
  repo: StoriesRepository;
  cache: StoriesCache;
  clock: Clock;
  expireEveryMs: number;
}) {
  const { ctx, repo, cache, clock } = deps;
  const read = readRepository(ctx.db.kysely);
  const tmpDir = `${ctx.config.dataDir}/tmp`;

  const cutoff = () => new Date(clock.now().getTime() - StoryLimits.lifetimeMs);

  /** The caller's blacklist and followees from the media read cache (invalidated on follow and tag changes). */
  function viewerState(viewer: number): Promise<FeedViewer> {
    return ctx.media.cache.viewers.get(viewer, () => read.viewer(viewer));
  }

  /** A live, ready story the caller may act on (not one they reported). */
  async function live(id: number, viewer: number): Promise<StoryRow> {
    const story = await repo.byId(id);
    if (!story || story.created_at <= cutoff()) throw notFound();
    // Removed by a moderator, or hidden while the author is suspended (modules/moderation): gone for everyone.
    const state: string = story.status;
    if (state === 'removed' || state === 'suspended') throw notFound();
    if (story.status !== 'ready' && story.user_id !== viewer) throw notFound();
    if (story.user_id !== viewer && (await repo.reported(id, viewer))) throw notFound();
    // A blocked user sees none of the blocker's stories (settings module).
    if (!(await ctx.settings.canSeeStories(story.user_id, viewer))) throw notFound();
    return story;
  }

  /** Of `owners`, those who blocked `viewer`. */
  async function blockersAmong(viewer: number, owners: number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (const owner of owners) if (!(await ctx.settings.canSeeStories(owner, viewer))) out.add(owner);
    return out;
  }

  async function audience(userId: number): Promise<number[]> {
    return [userId, ...(await ctx.profiles.followerIds(userId))];
  }

  async function emit(
    event: 'story-created' | 'story-ready' | 'story-deleted',
    story: { id: number; user_id: number; status: Story['status'] },
    to: number[],
  ) {
    for (const userId of to)
      ctx.gateway.emitToUser(userId, event, {
        story_id: story.id,
        user_id: story.user_id,
        status: story.status,
      });
  }

  async function deleteFiles(urls: (string | null)[]) {
    for (const url of urls) {
      const key = url ? ctx.storage.keyFromUrl(url) : null;
      if (url && key && !(await repo.isUrlInUse(url))) await ctx.storage.delete(key);
    }
  }

  /** Queues the next expiry run unless one is queued already (any node, any upload; the unique index keeps one). */
  async function scheduleExpiry(delayMs: number, executor: Kysely<Database> = ctx.db.kysely) {
    await sql`insert into jobs (kind, payload, run_at)
      values (${EXPIRE_JOB}, '{}'::jsonb, now() + make_interval(secs => ${delayMs / 1000}))
      on conflict do nothing`.execute(executor);
  }

  /**
   * Live stories of these authors as `viewer` sees them, from the read cache (the same answer as
   * `repo.readable`, which `stories-cache.test.ts` compares it with): groups by their newest story, newest
   * first, at most `limit`; stories oldest first; the viewer's own count as viewed; reported ones absent.
   */
  async function groupsOf(
    viewer: number,
    authorIds: readonly number[],
    limit: number,
  ): Promise<StoryGroup[]> {
    const authors = [...new Set(authorIds)];
    const [state, byAuthor, marks] = await Promise.all([
      viewerState(viewer),
      cache.byAuthor.getMany(authors, (missing) => repo.liveByAuthors(missing, cutoff())),
      cache.marks.get(viewer, () => repo.marksOf(viewer, cutoff())),
    ]);
    const cut = cutoff().getTime();
    const live: { author: number; rows: StoryRow[]; last: number }[] = [];
    for (const author of authors) {
      const rows = (byAuthor.get(author) ?? []).filter(
        (r) => new Date(r.created_at).getTime() > cut && !marks.reported.has(r.id),
      );
      const newest = rows.at(-1);
      if (newest) live.push({ author, rows, last: new Date(newest.created_at).getTime() });
    }
    live.sort((x, y) => y.last - x.last || y.author - x.author);
    const page = live.slice(0, limit);
    const users = await ctx.media.cache.authors.getMany(
      page.map((g) => g.author),
      (missing) => read.authors(missing),
    );
    const groups: StoryGroup[] = [];
    for (const { author, rows } of page) {
      const user = users.get(author);
      if (!user) continue;
      const stories = rows.map((r) =>
        toStory(
          r,
          { is_viewed: author === viewer || marks.viewed.has(r.id), is_liked: marks.liked.has(r.id) },
          state.blacklist,
        ),
      );
      groups.push({
        user: toStoryUser({ id: author, ...user }),
        stories,
        has_unviewed: stories.some((st) => !st.is_viewed),
        last_story_at: stories.at(-1)?.created_at ?? '',
      });
    }
    return groups;
  }

  async function groupOf(ownerId: number, viewer: number): Promise<StoryGroup | null> {
    return (await groupsOf(viewer, [ownerId], 1))[0] ?? null;
  }

  async function feed(viewer: number, limit: number): Promise<StoryGroup[]> {
    const state = await viewerState(viewer);
    const blockers = await blockersAmong(viewer, [...state.followees]);
    const owners = [...state.followees].filter((id) => !blockers.has(id));
    return groupsOf(viewer, [viewer, ...owners], limit);
  }

  async function receive(req: FastifyRequest, userId: number): Promise<Story> {
    const limits = ctx.config.media;
    const received = await receiveUpload(req, tmpDir, limits, {
      fileField: StoryUploadFields.file,
      fields: [StoryUploadFields.start, StoryUploadFields.duration, StoryUploadFields.texts],
    });
    try {
      const caption = received.caption.trim();
      if ([...caption].length > StoryLimits.caption)
        throw errors.validation({ caption: StoryErrorText.captionTooLong }, StoryErrorText.captionTooLong);
      const texts = parseStoryTexts(received.fields.texts);
      const declared = received.mediaType;
      if (declared !== null && declared !== '' && declared !== 'video' && declared !== 'photo')
        throw errors.validation({ media_type: ErrorText.validationFailed });
      const [file, ...rest] = received.files;
      if (!file || rest.length > 0 || received.thumbnail)
        throw errors.unsupportedMedia(StoryErrorText.wrongType);
      const kind = await sniffFile(ctx.media.ffmpeg, file.path);
      if (!kind) throw errors.unsupportedMedia(StoryErrorText.wrongType);
      if (file.bytes > (kind === 'video' ? limits.maxVideoBytes : limits.maxImageBytes))
        throw errors.unsupportedMedia(ErrorText.uploadTooLarge);
      let duration = clampDuration(
        numberField(received.fields.duration, 'duration', StoryLimits.defaultDurationS),
      );
      let start = Math.max(0, numberField(received.fields.start, 'start', 0));
      if (kind === 'video') {
        const info = await probe(ctx.media.ffmpeg, file.path, { lane: 'request' });
        const length = info.duration ?? duration;
        if (start >= length) start = Math.max(0, length - duration);
        duration = Math.max(Math.min(duration, length - start), Math.min(length, StoryLimits.minDurationS));
      }
      const mediaType = kind === 'video' ? 'video' : 'photo';
      // A photo's texts are already in its pixels (the editor draws them); only a video's are sent apart.
      if (texts.length > 0 && kind !== 'video')
        throw errors.validation({ texts: ErrorText.validationFailed });
      const id = await repo.db.transaction().execute(async (trx) => {
        const storyId = await repo.insert(trx, {
          user_id: userId,
          media_type: mediaType,
          caption,
          duration,
          created_at: clock.now(),
        });
        const payload: ProcessPayload = {
          storyId,
          dir: received.dir,
          file: file.path,
          kind,
          start,
          duration,
          texts,
        };
        await ctx.media.jobs.enqueue(PROCESS_JOB, payload, trx);
        await scheduleExpiry(deps.expireEveryMs, trx);
        return storyId;
      });
      ctx.media.jobs.notify();
      const row = (await repo.byId(id)) as StoryRow;
      await emit('story-created', row, [userId]);
      return toStory(row, { is_viewed: true, is_liked: false }, new Set());
    } catch (error) {
      await fs.rm(received.dir, { recursive: true, force: true });
      throw error;
    }
  }

  return {
    clock,
    cutoff,

    /**
     * A photo story whose picture is stored and cut already (the demo seeder's prepared 9:16 variants): ready at
     * once, announced to the owner and followers like a processed one.
     */
    async publishReady(story: {
      userId: number;
      caption: string;
      fileUrl: string;
      thumbnailUrl: string;
      /** The picture's screen variant (`storyScreenSize`), when it has one. */
      screenUrl?: string | null;
      createdAt?: Date;
    }): Promise<number> {
      const id = await repo.db.transaction().execute(async (trx) => {
        const storyId = await repo.insert(trx, {
          user_id: story.userId,
          media_type: 'photo',
          caption: story.caption,
          duration: StoryLimits.defaultDurationS,
          created_at: story.createdAt ?? clock.now(),
        });
        await scheduleExpiry(deps.expireEveryMs, trx);
        return storyId;
      });
      await repo.finish(id, {
        file_url: story.fileUrl,
        thumbnail_url: story.thumbnailUrl,
        screen_url: story.screenUrl ?? null,
        duration: StoryLimits.defaultDurationS,
        ai_tags: [],
      });
      await emit('story-created', (await repo.byId(id)) as StoryRow, [story.userId]);
      await this.finished(id, story.userId, 'ready');
      return id;
    },

    /** Counted against `story.upload` and the uploads one user may have in flight, like post uploads. */
    async upload(req: FastifyRequest, userId: number): Promise<Story> {
      await ctx.limits.consume('story.upload', { user: userId });
      return ctx.media.inFlight.run(userId, () => receive(req, userId));
    },

    /** Processing finished: the owner hears either way, followers only of a ready story. */
    async finished(storyId: number, userId: number, status: 'ready' | 'failed') {
      if (status === 'ready') await cache.changed({ authors: [userId] });
      await emit(
        'story-ready',
        { id: storyId, user_id: userId, status },
        status === 'ready' ? await audience(userId) : [userId],
      );
    },

    feed,

    /**
     * The first page (`limit` = 20, what the strip asks for) as sent, from the per-viewer page cache; a hit
     * is one map lookup. `render` turns a built page into the route's JSON bytes. The page depends on the
     * viewer and on every followee (shown or not: a new story may move one in), and is true until its
     * earliest story expires.
     */
    firstPage(viewer: number, render: (groups: StoryGroup[]) => Buffer): Promise<Buffer> {
      return cache.pages.get(viewer, async () => {
        const followees = [...(await viewerState(viewer)).followees];
        const groups = await feed(viewer, StoryLimits.feedGroups);
        let expiresAt = Number.POSITIVE_INFINITY;
        for (const g of groups)
          for (const st of g.stories) expiresAt = Math.min(expiresAt, Date.parse(st.expires_at));
        return { body: render(groups), authors: [viewer, ...followees], expiresAt };
      });
    },

    /** The same answer straight from SQL, uncached (the reference the cache is tested against). */
    async feedUncached(viewer: number, limit: number): Promise<StoryGroup[]> {
      const state = await viewerState(viewer);
      const blockers = await blockersAmong(viewer, [...state.followees]);
      const owners = [...state.followees].filter((id) => !blockers.has(id));
      const rows = await repo.readable(viewer, [viewer, ...owners], cutoff(), limit);
      for (const r of rows) if (r.user_id === viewer) r.is_viewed = true;
      return toGroups(rows, state.blacklist);
    },

    async get(id: number, viewer: number) {
      const story = await live(id, viewer);
      const group = await groupOf(story.user_id, viewer);
      if (!group?.stories.some((s) => s.id === id)) throw notFound();
      return { group, story_id: id };
    },

    async view(id: number, viewer: number) {
      const story = await live(id, viewer);
      if (story.user_id === viewer) return { is_viewed: true, views_count: story.views_count };
      const views_count = await repo.addView(id, viewer);
      await cache.changed({ authors: [story.user_id], viewers: [viewer] });
      return { is_viewed: true, views_count };
    },

    async viewers(id: number, viewer: number) {
      const story = await live(id, viewer);
      if (story.user_id !== viewer) throw errors.forbidden(StoryErrorText.viewersForbidden);
      const rows = await repo.viewers(id);
      return {
        viewers: rows.map((r) => ({
          id: r.id,
          user: toStoryUser(r),
          viewed_at: new Date(r.created_at).toISOString(),
          liked: Boolean(r.liked),
        })),
      };
    },

    async like(id: number, viewer: number, on: boolean) {
      await ctx.limits.consume('story.like', { user: viewer });
      const story = await live(id, viewer);
      if (story.status !== 'ready') throw notFound();
      const likes_count = await repo.setLike(id, viewer, on);
      await cache.changed({ authors: [story.user_id], viewers: [viewer] });
      return { is_liked: on, likes_count };
    },

    async remove(id: number, viewer: number) {
      const story = await repo.byId(id);
      if (!story || story.created_at <= cutoff()) throw notFound();
      if (story.user_id !== viewer) throw errors.forbidden(StoryErrorText.deleteForbidden);
      const removed = await repo.remove(id);
      if (!removed) throw notFound();
      await cache.changed({ authors: [viewer] });
      await deleteFiles([removed.file_url, removed.thumbnail_url, removed.screen_url]);
      await emit('story-deleted', story, await audience(viewer));
      return { deleted: true };
    },

    async reply(id: number, viewer: number, content: string, tempId?: string) {
      const story = await live(id, viewer);
      if (story.status !== 'ready') throw notFound();
      if (story.user_id === viewer)
        throw errors.validation({ content: StoryErrorText.replyToSelf }, StoryErrorText.replyToSelf);
      const text = content.trim();
      if (text === '')
        throw errors.validation({ content: StoryErrorText.replyEmpty }, StoryErrorText.replyEmpty);
      const message = await ctx.messenger.messages.send(
        viewer,
        { other_user_id: story.user_id, content: text, temp_id: tempId ?? `story-${id}-${randomUUID()}` },
        { storyId: id },
      );
      return { message };
    },

    /** The reporter no longer sees the story (the report itself goes to modules/moderation's queue). */
    async hideFromReporter(id: number, viewer: number, reason: StoryReportReason) {
      const story = await live(id, viewer);
      if (story.user_id === viewer)
        throw new AppError(400, ErrorCode.cannotReportOwnStory, ErrorText.cannotReportOwnStory);
      await repo.report(id, viewer, reason);
      await cache.changed({ viewers: [viewer] });
      return { reported: true };
    },

    /** Reply previews for the messenger: live stories by id; missing ones are shown as expired. */
    async previews(ids: number[]): Promise<Map<number, MessageStoryRef>> {
      const rows = await repo.previews(ids, cutoff());
      return new Map(
        rows.map((r) => [
          r.id,
          {
            id: r.id,
            media_type: r.media_type,
            media_url: r.file_url,
            thumbnail_url: r.thumbnail_url,
            expired: r.status !== 'ready',
          },
        ]),
      );
    },

    async homeFeed(viewer: number, offset: number, limit: number) {
      const state = await viewerState(viewer);
      const ids = await repo.postIdsBy([...state.followees], offset, limit + 1);
      const posts = await Promise.all(
        ids.slice(0, limit).map((id) => ctx.media.service.view(id, viewer).catch(() => null)),
      );
      return {
        posts: posts.flatMap((p) => (p ? [toPost(p)] : [])),
        has_more: ids.length > limit,
      };
    },

    /** The expiry job's work: every story past 24 h goes, with its files. */
    async expire(): Promise<number> {
      const removed = await repo.removeExpired(cutoff());
      if (removed.length > 0) await cache.changed({ authors: [...new Set(removed.map((r) => r.user_id))] });
      await deleteFiles(removed.flatMap((r) => [r.file_url, r.thumbnail_url, r.screen_url]));
      return removed.length;
    },

    scheduleExpiry: (delayMs = deps.expireEveryMs) => scheduleExpiry(delayMs),
  };
}

export type StoriesService = ReturnType<typeof storiesService>;
