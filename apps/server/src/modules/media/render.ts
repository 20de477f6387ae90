import type { Post } from '@kadr/contract';
import type { PostAuthor, PostBody } from './read-repository.ts';

/** A post as one reader sees it: the shared body and author, the reader's marks and blacklist verdict. */
export interface ReadPost {
  body: PostBody;
  user: PostAuthor;
  liked: boolean;
  saved: boolean;
  reposted: boolean;
  filtered: boolean;
}

export function toPost(p: ReadPost): Post {
  const b = p.body;
  return {
    id: b.id,
    user_id: b.user_id,
    caption: b.caption,
    media_type: b.media_type,
    status: b.status,
    files: b.files.map((f) => ({
      file_url: f.file_url,
      thumbnail_url: f.thumbnail_url,
      file_type: f.file_type,
      width: f.width,
      height: f.height,
      duration: f.duration,
      screen_url: f.screen_url ?? null,
    })),
    user: {
      username: p.user.username,
      name: p.user.name,
      avatar_url: p.user.avatar_url,
      avatar_thumbnail_url: p.user.avatar_thumbnail_url,
    },
    is_liked: p.liked,
    likes_count: b.likes_count,
    is_saved: p.saved,
    is_reposted: p.reposted,
    reposts_count: b.reposts_count,
    comments_count: b.comments_count,
    is_filtered: p.filtered,
    ai_description: b.ai_description,
    ai_objects: b.ai_objects,
    ai_tags: b.ai_tags,
    created_at: b.created_at,
    ...(b.status === 'failed' && b.failure_reason ? { failure_reason: b.failure_reason } : {}),
  };
}

// A Post's JSON with its fields in the contract's order, cut where the reader's flags go: the shared parts are
// encoded once per body and author (the WeakMap forgets them with the body), each reader only adds 4 flags.
// Byte for byte what the contract's serializer writes (render.test.ts), without its per-request cost. The
// cuts are found safely: inside a JSON string every quote is escaped, so `"is_liked":` only matches the key.
const FLAGS = ['is_liked', 'is_saved', 'is_reposted', 'is_filtered'] as const;
const shared = new WeakMap<PostBody, { user: PostAuthor; parts: Buffer[] }>();

function sharedParts(body: PostBody, user: PostAuthor): Buffer[] {
  const known = shared.get(body);
  if (known?.user === user) return known.parts;
  const json = JSON.stringify(
    toPost({ body, user, liked: false, saved: false, reposted: false, filtered: false }),
  );
  const parts: Buffer[] = [];
  let from = 0;
  for (const key of FLAGS) {
    const marker = `"${key}":`;
    const at = json.indexOf(`${marker}false`, from) + marker.length;
    parts.push(Buffer.from(json.slice(from, at)));
    from = at + 'false'.length;
  }
  parts.push(Buffer.from(json.slice(from)));
  shared.set(body, { user, parts });
  return parts;
}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const flag = (on: boolean) => (on ? TRUE : FALSE);

function pushPost(out: Buffer[], p: ReadPost) {
  const parts = sharedParts(p.body, p.user);
  const flags = [p.liked, p.saved, p.reposted, p.filtered];
  for (let i = 0; i < parts.length; i++) {
    out.push(parts[i]!);
    if (i < flags.length) out.push(flag(flags[i]!));
  }
}

const COMMA = Buffer.from(',');
const PAGE_OPEN = Buffer.from('{"posts":[');
const MORE = Buffer.from('],"has_more":true}');
const NO_MORE = Buffer.from('],"has_more":false}');
const POST_OPEN = Buffer.from('{"post":');
const CLOSE = Buffer.from('}');

/** Rendered JSON bytes go out like a stored page (lib/stored-json.ts). */
export { sendJson } from '../../lib/stored-json.ts';

/** `{ posts, has_more }` (FeedResponse / PostsResponse) as JSON bytes. */
export function pageJson({ posts, has_more }: { posts: ReadPost[]; has_more: boolean }): Buffer {
  const out: Buffer[] = [PAGE_OPEN];
  posts.forEach((p, i) => {
    if (i > 0) out.push(COMMA);
    pushPost(out, p);
  });
  out.push(has_more ? MORE : NO_MORE);
  return Buffer.concat(out);
}

/** `{ post }` (PostResponse) as JSON bytes. */
export function postJson(post: ReadPost): Buffer {
  const out: Buffer[] = [POST_OPEN];
  pushPost(out, post);
  out.push(CLOSE);
  return Buffer.concat(out);
}
