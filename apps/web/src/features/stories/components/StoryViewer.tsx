import type { Story, StoryGroup, StoryReportReason } from '@kadr/contract';
import { STORY_REPORT_REASONS } from '@kadr/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { Eye, EyeOff, Heart, MoreHorizontal, Send, Trash2, TriangleAlert, X } from 'lucide-react';
import { type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { usePageShown } from '../../../app/boot/frame-overlay.ts';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { afterNextPaint } from '../../../shared/lib/after-paint.ts';
import { STORY_FRAME, storyPicture } from '../../../shared/lib/post-image.ts';
import { swallowNextClick } from '../../../shared/lib/swallow-next-click.ts';
import { useStableCallback } from '../../../shared/lib/use-stable-callback.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { PopupMenu } from '../../../shared/ui/PopupMenu.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import {
  storiesKeys,
  useDeleteStory,
  useMarkViewed,
  useStoryLike,
  useStoryReply,
  useStoryReport,
  useStoryViewers,
} from '../api/stories-queries.ts';
import { storyLink } from '../lib/story-link.ts';
import { useStoriesUi, type ViewerState } from '../stories-ui-store.ts';
import { STORY_UI, storiesStrings as s } from '../strings.ts';
import styles from './StoryViewer.module.css';

type Overlay = null | 'menu' | 'report' | 'viewers';

/** The next position after (g, i), or null after the last story of the last group. */
function step(groups: StoryGroup[], g: number, i: number, dir: 1 | -1): [number, number] | null {
  const count = groups[g]?.stories.length ?? 0;
  if (dir === 1) {
    if (i + 1 < count) return [g, i + 1];
    return g + 1 < groups.length ? [g + 1, 0] : null;
  }
  if (i > 0) return [g, i - 1];
  if (g > 0) return [g - 1, Math.max(0, (groups[g - 1]?.stories.length ?? 1) - 1)];
  return [g, 0];
}

function Preload({ story }: { story: Story | undefined }) {
  if (!story?.file_url) return null;
  // The picture the next story will show (its screen variant on a phone), so it is not fetched twice.
  const picture = storyPicture(story);
  // Rendered hidden so the browser fetches (and for video, buffers) the next story before it is shown.
  return story.media_type === 'video' ? (
    <video
      className={styles.preload}
      src={story.file_url}
      preload="auto"
      muted
      playsInline
      tabIndex={-1}
      aria-hidden="true"
    />
  ) : picture ? (
    <img
      className={styles.preload}
      src={picture.src}
      width={picture.width}
      height={picture.height}
      alt=""
      aria-hidden="true"
    />
  ) : null;
}

/** How long a story shows: a video its clip's length (at least 1 s), a picture its duration (15 s by default). */
function storyDurationMs(story: Story | undefined, video: HTMLVideoElement | null): number {
  return story?.media_type === 'video'
    ? Math.max(1000, (video?.duration || story.duration) * 1000)
    : (story?.duration || 15) * 1000;
}

/** The story viewer overlay (spec §4.10). */
export function StoryViewer({ viewer }: { viewer: ViewerState }) {
  // A story opened by link: the HTML's frame showed it until now (app/boot/boot-script.ts).
  usePageShown();
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const moveTo = useStoriesUi((st) => st.moveTo);
  const closeViewer = useStoriesUi((st) => st.closeViewer);
  const dropStory = useStoriesUi((st) => st.dropStory);
  const { groups, groupIndex, storyIndex } = viewer;
  const group = groups[groupIndex];
  const story = group?.stories[storyIndex];
  const own = story !== undefined && story.user_id === me?.id;

  // Progress and readiness are keyed by the story they belong to: a reset in an effect after the story
  // changed raced the next image's load event (already cached by the preload) and the previous story's
  // elapsed time (≥ its duration) advanced past the new story in the same commit.
  // The time shown of the current story, drawn on its segment by the tick (below), not through a render.
  const progress = useRef<{ id: number; ms: number }>({ id: -1, ms: 0 });
  const activeFill = useRef<HTMLSpanElement>(null);
  const [readyId, setReadyId] = useState<number | null>(null);
  const [held, setHeld] = useState(false);
  // A mouse resting on the like/reply bar pauses the story (as typing a reply does), so a click there
  // acts on the story the person was looking at.
  const [overBar, setOverBar] = useState(false);
  const [sheet, setSheet] = useState<Overlay>(null);
  /** Where the options menu opens: under its button. */
  const [menuAt, setMenuAt] = useState({ x: 0, y: 0 });
  const [replyFocused, setReplyFocused] = useState(false);
  const [reply, setReply] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<Set<number>>(new Set());
  const [broken, setBroken] = useState<Set<number>>(new Set());
  const videoRef = useRef<HTMLVideoElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const pointer = useRef<{ x: number; y: number; t: number; timer: number; holding: boolean } | null>(null);

  const markViewed = useMarkViewed();
  const like = useStoryLike();
  const remove = useDeleteStory();
  const sendReply = useStoryReply();
  const report = useStoryReport();
  const viewers = useStoryViewers(story?.id ?? 0, own && sheet === 'viewers');

  const elapsed = story !== undefined && progress.current.id === story.id ? progress.current.ms : 0;
  const ready = story !== undefined && readyId === story.id;
  const filtered = story?.is_filtered === true && !revealed.has(story.id);
  const paused = held || overBar || sheet !== null || replyFocused || filtered || !ready;
  const durationMs = storyDurationMs(story, videoRef.current);

  const close = useCallback(() => {
    closeViewer();
    void queryClient.invalidateQueries({ queryKey: storiesKeys.feed() });
  }, [closeViewer, queryClient]);

  const go = useCallback(
    (dir: 1 | -1) => {
      const next = step(groups, groupIndex, storyIndex, dir);
      if (!next) close();
      else moveTo(next[0], next[1]);
    },
    [groups, groupIndex, storyIndex, moveTo, close],
  );

  // A new story starts from zero and counts as viewed once it is shown (latest values read through a ref,
  // so a like or a view count arriving does not restart it).
  const latest = useRef({ story, markViewed, me: me?.id ?? null });
  latest.current = { story, markViewed, me: me?.id ?? null };
  const storyId = story?.id;
  useEffect(() => {
    if (storyId === undefined) return;
    setReply('');
    setSheet(null);
    const current = latest.current;
    if (current.story?.status === 'ready') current.markViewed(current.story, current.me);
  }, [storyId]);

  // Progress ticks every 50 ms (§9); a video's progress follows its clock. Each tick moves the current
  // segment's bar itself: as a state update it rendered the whole viewer 20 times a second, two commits a
  // tick, for as long as a story was on screen (a story page's busiest main thread).
  const advance = useStableCallback(() => go(1));
  useEffect(() => {
    if (!story || paused) return;
    // Ticks every 50 ms but adds the time that really passed, so a busy main thread does not slow the story.
    let last = performance.now();
    const id = story.id;
    const timer = window.setInterval(() => {
      const video = videoRef.current;
      const now = performance.now();
      const before = progress.current.id === id ? progress.current.ms : 0;
      const ms = story.media_type === 'video' && video ? video.currentTime * 1000 : before + now - last;
      last = now;
      progress.current = { id, ms };
      const duration = storyDurationMs(story, video);
      if (activeFill.current) activeFill.current.style.transform = `scaleX(${Math.min(1, ms / duration)})`;
      if (story.media_type !== 'video' && ms >= duration) {
        window.clearInterval(timer);
        advance();
      }
    }, STORY_UI.tickMs);
    return () => window.clearInterval(timer);
  }, [story, paused, advance]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new story's video element needs the same call.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (paused && ready) video.pause();
    else if (!paused)
      void video
        .play()
        .catch(() => {
          // Autoplay with sound refused: play muted rather than stall the story.
          video.muted = true;
          return video.play();
        })
        .catch(() => undefined);
  }, [paused, ready, story?.id]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) {
        if (e.key === 'Escape') (e.target as HTMLElement).blur();
        return;
      }
      if (e.key === 'Escape') {
        if (sheet) setSheet(null);
        else close();
      } else if (e.key === 'ArrowRight') go(1);
      else if (e.key === 'ArrowLeft') go(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, close, sheet]);

  // The viewer is a fixed full-screen layer: focus needs no scroll, and a scroll into view would lay out the
  // whole page inside the mount's task (the longest task of a story opened by link). Focus itself needs a
  // clean layout too: taken in the mount's commit it laid the page out there (39 ms of a 114 ms task in a
  // first visit's trace), so it waits until the first frame is drawn, one frame later for a keyboard user.
  useEffect(() => afterNextPaint(() => dialogRef.current?.focus({ preventScroll: true })), []);

  useEffect(() => {
    if (!notice) return;
    const t = window.setTimeout(() => setNotice(null), 2000);
    return () => window.clearTimeout(t);
  }, [notice]);

  if (!group || !story) return null;
  // A photo's screen variant when it has one (shared/lib/post-image.ts), as the boot script painted it.
  const picture = storyPicture(story);
  const next = step(groups, groupIndex, storyIndex, 1);
  const nextStory = next ? groups[next[0]]?.stories[next[1]] : undefined;

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const third = (e.clientX - rect.left) / rect.width;
    const timer = window.setTimeout(() => {
      if (pointer.current && third > 1 / 3 && third < 2 / 3) {
        pointer.current.holding = true;
        setHeld(true);
      }
    }, STORY_UI.holdMs);
    pointer.current = { x: e.clientX, y: e.clientY, t: Date.now(), timer, holding: false };
  };

  // A finger that moves is swiping, not holding.
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const p = pointer.current;
    if (!p || p.holding) return;
    if (Math.abs(e.clientX - p.x) > 10 || Math.abs(e.clientY - p.y) > 10) window.clearTimeout(p.timer);
  };

  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const p = pointer.current;
    pointer.current = null;
    if (!p) return;
    window.clearTimeout(p.timer);
    if (p.holding) setHeld(false);
    // A swipe counts even when the finger rested long enough to pause first (a slow start, a busy thread).
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    // The viewer is gone before the click of this same tap is dispatched: it must not reach what was under it.
    const closeByGesture = () => {
      swallowNextClick();
      close();
    };
    const advance = (dir: 1 | -1) => (dir === 1 && !next ? closeByGesture() : go(dir));
    if (dy > STORY_UI.swipeDown && Math.abs(dy) > Math.abs(dx)) return closeByGesture();
    if (Math.abs(dx) > STORY_UI.swipeX && Math.abs(dx) > Math.abs(dy)) return advance(dx < 0 ? 1 : -1);
    if (p.holding || Math.abs(dx) > 10 || Math.abs(dy) > 10) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const third = (e.clientX - rect.left) / rect.width;
    if (third < 1 / 3) advance(-1);
    else if (third > 2 / 3) advance(1);
  };

  const onPointerCancel = () => {
    if (pointer.current) window.clearTimeout(pointer.current.timer);
    pointer.current = null;
    setHeld(false);
  };

  const link = storyLink(story.id);
  const share = async () => {
    setSheet(null);
    if (navigator.share) {
      try {
        await navigator.share({ title: s.viewer(group.user.display_name), url: link });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    await copy();
  };
  const copy = async () => {
    setSheet(null);
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Clipboard refused (insecure context or permissions): the notice still names the link's purpose.
    }
    setNotice(s.copied);
  };

  const progressOf = (i: number) =>
    i < storyIndex ? 1 : i > storyIndex ? 0 : Math.min(1, elapsed / durationMs);

  return (
    <div
      ref={dialogRef}
      className={styles.overlay}
      role="dialog"
      aria-modal="true"
      aria-label={s.viewer(group.user.display_name)}
      tabIndex={-1}
      data-story-id={story.id}
      data-testid="story-viewer"
    >
      <div className={styles.frame} data-chrome-hidden={held}>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the tap/hold/swipe surface; arrow keys and Escape do the same from the keyboard. */}
        <div
          className={styles.stage}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerCancel}
          onContextMenu={(e) => e.preventDefault()}
          data-testid="story-stage"
        >
          {broken.has(story.id) ? (
            <div className={styles.broken} role="alert">
              <TriangleAlert size={28} aria-hidden="true" />
              <span>{s.brokenImage}</span>
            </div>
          ) : story.media_type === 'video' ? (
            // biome-ignore lint/a11y/useMediaCaption: stories carry no caption tracks; the caption text is shown over the video.
            <video
              key={story.id}
              ref={videoRef}
              className={styles.media}
              src={story.file_url ?? undefined}
              poster={story.thumbnail_url ?? undefined}
              playsInline
              autoPlay
              aria-label={story.ai_description || story.caption || undefined}
              onLoadedData={() => setReadyId(story.id)}
              onEnded={() => go(1)}
              onError={() => {
                setReadyId(story.id);
                setBroken((b) => new Set(b).add(story.id));
              }}
              data-testid="story-media"
            />
          ) : (
            <img
              key={story.id}
              className={styles.media}
              src={picture?.src}
              width={picture?.width ?? STORY_FRAME.width}
              height={picture?.height ?? STORY_FRAME.height}
              fetchPriority="high"
              alt={story.ai_description || story.caption}
              draggable={false}
              ref={(img) => {
                // A cached image (the preload fetched it) may be complete before its load listener runs.
                if (img?.complete && img.naturalWidth > 0) setReadyId(story.id);
              }}
              onLoad={() => setReadyId(story.id)}
              onError={() => {
                setReadyId(story.id);
                setBroken((b) => new Set(b).add(story.id));
              }}
              data-testid="story-media"
            />
          )}
          {filtered ? (
            <div className={styles.filtered}>
              <EyeOff size={28} aria-hidden="true" />
              <p>{s.filtered}</p>
              <button
                type="button"
                className={styles.pill}
                onPointerDown={(e) => e.stopPropagation()}
                onPointerUp={(e) => e.stopPropagation()}
                onClick={() => setRevealed((r) => new Set(r).add(story.id))}
              >
                {s.reveal}
              </button>
            </div>
          ) : null}
          {story.caption ? <p className={styles.caption}>{withEmoji(story.caption)}</p> : null}
        </div>

        <div className={styles.top}>
          <div className={styles.segments} aria-hidden="true">
            {group.stories.map((st, i) => (
              <span key={st.id} className={styles.segment}>
                <span
                  ref={i === storyIndex ? activeFill : undefined}
                  className={styles.fill}
                  style={{ transform: `scaleX(${progressOf(i)})` }}
                />
              </span>
            ))}
          </div>
          <div className={styles.header}>
            <Avatar name={group.user.display_name} url={group.user.avatar_url} size={36} />
            <div className={styles.who}>
              <span className={styles.author}>{group.user.display_name}</span>
              <span className={styles.time}>
                {s.timeAgo(story.created_at, Date.now())}
                {/* The author sees how long the story has left (24 h from publishing). */}
                {own ? (
                  <span data-testid="story-expires">
                    {' · '}
                    {s.expiresIn(story.expires_at, Date.now())}
                  </span>
                ) : null}
              </span>
            </div>
            <button
              type="button"
              className={styles.icon}
              aria-label={s.options}
              onClick={(e) => {
                const box = e.currentTarget.getBoundingClientRect();
                setMenuAt({ x: box.right - 200, y: box.bottom + 4 });
                setSheet('menu');
              }}
            >
              <MoreHorizontal size={22} aria-hidden="true" />
            </button>
            <button type="button" className={styles.icon} aria-label={s.close} onClick={close}>
              <X size={24} aria-hidden="true" />
            </button>
          </div>
        </div>

        <div
          className={styles.bottom}
          onPointerEnter={(e) => setOverBar(e.pointerType === 'mouse')}
          onPointerLeave={() => setOverBar(false)}
        >
          {own ? (
            <div className={styles.ownBar}>
              <button type="button" className={styles.pill} onClick={() => setSheet('viewers')}>
                <Eye size={18} aria-hidden="true" />
                {s.views(story.views_count)}
              </button>
              <button
                type="button"
                className={`${styles.icon} ${styles.danger}`}
                aria-label={s.delete}
                onClick={() => {
                  // biome-ignore lint/suspicious/noAlert: a yes/no confirmation (spec wording); alert() stays banned
                  if (!window.confirm(s.deleteConfirm)) return;
                  remove.mutate(story.id, { onSuccess: () => go(1) });
                }}
              >
                <Trash2 size={20} aria-hidden="true" />
              </button>
            </div>
          ) : (
            <form
              className={styles.replyBar}
              onSubmit={(e) => {
                e.preventDefault();
                const content = reply.trim();
                if (!content) return;
                sendReply.mutate(
                  { storyId: story.id, content },
                  {
                    onSuccess: () => {
                      setReply('');
                      setNotice(s.replySent);
                      (document.activeElement as HTMLElement | null)?.blur();
                    },
                  },
                );
              }}
            >
              <input
                className={styles.replyInput}
                value={reply}
                onChange={(e) => setReply(e.target.value)}
                onFocus={() => setReplyFocused(true)}
                onBlur={() => setReplyFocused(false)}
                placeholder={s.replyPlaceholder}
                aria-label={s.replyPlaceholder}
                maxLength={4096}
              />
              {reply.trim() ? (
                <button
                  type="submit"
                  className={styles.icon}
                  aria-label={s.send}
                  disabled={sendReply.isPending}
                >
                  <Send size={20} aria-hidden="true" />
                </button>
              ) : null}
              <button
                type="button"
                className={styles.like}
                // The count shown on the button is part of its name (what is seen is what can be said).
                aria-label={`${story.is_liked ? s.unlike : s.like}, ${s.likes(story.likes_count)}`}
                aria-pressed={story.is_liked}
                onClick={() => like.mutate({ story, like: !story.is_liked })}
                data-testid="story-like"
              >
                <Heart
                  size={24}
                  aria-hidden="true"
                  fill={story.is_liked ? 'currentColor' : 'none'}
                  className={story.is_liked ? styles.liked : undefined}
                />
                <span data-testid="story-likes">{s.likes(story.likes_count)}</span>
              </button>
            </form>
          )}
        </div>

        {notice ? (
          <div className={styles.notice} role="status">
            {notice}
          </div>
        ) : null}

        {sheet === 'menu' ? (
          <PopupMenu
            label={s.options}
            at={menuAt}
            onClose={() => setSheet(null)}
            items={[
              { id: 'share', label: s.share, onSelect: () => void share() },
              { id: 'copy', label: s.copyLink, onSelect: () => void copy() },
              ...(own ? [] : [{ id: 'report', label: s.report, onSelect: () => setSheet('report') }]),
            ]}
          />
        ) : sheet === 'report' ? (
          <Sheet title={s.reportTitle} onClose={() => setSheet(null)}>
            <ul className={styles.menu}>
              {STORY_REPORT_REASONS.map((reason: StoryReportReason) => (
                <li key={reason}>
                  <button
                    type="button"
                    onClick={() =>
                      report.mutate(
                        { storyId: story.id, reason },
                        {
                          onSuccess: () => {
                            setNotice(s.reported);
                            // Hidden from the reporter: going back must not show it again.
                            dropStory(story.id);
                          },
                        },
                      )
                    }
                  >
                    {s.reasons[reason]}
                  </button>
                </li>
              ))}
            </ul>
          </Sheet>
        ) : sheet === 'viewers' ? (
          <Sheet title={s.viewersTitle} onClose={() => setSheet(null)}>
            {viewers.isPending ? null : (viewers.data?.viewers.length ?? 0) === 0 ? (
              <p className={styles.muted}>{s.empty}</p>
            ) : (
              <ul className={styles.viewers} data-testid="story-viewers">
                {viewers.data?.viewers.map((v) => (
                  <li key={v.id}>
                    <Avatar name={v.user.display_name} url={v.user.avatar_url} size={36} />
                    <span>
                      <strong>{v.user.display_name}</strong>
                      <span className={styles.muted}>@{v.user.username}</span>
                    </span>
                    {v.liked ? (
                      <span className={styles.viewerLiked} data-testid="viewer-liked">
                        <Heart size={18} aria-hidden="true" fill="currentColor" />
                        <span className="visually-hidden">{s.viewerLiked}</span>
                      </span>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </Sheet>
        ) : null}
      </div>
      <Preload story={nextStory} />
    </div>
  );
}
