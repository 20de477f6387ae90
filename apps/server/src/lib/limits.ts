import { isIPv6 } from 'node:net';
import { ErrorCode, ErrorText } from '@kadr/contract';
import { AppError } from './errors.ts';
import type { RateLimiter } from './rate-limiter.ts';

/**
 * What a limit counts by:
 * - `user`: the signed-in user; a guest is counted by address (`ip64`), so anonymous reads are limited too;
 * - `ip`: the exact address;
 * - `ip64`: the address, IPv6 grouped by its /64 (one customer's prefix), IPv4 as is;
 * - `user+ip`: the pair, so one address cannot use up a user's allowance from another.
 */
export type LimitKeyKind = 'user' | 'ip' | 'ip64' | 'user+ip';

export interface LimitRule {
  /** Admitted units per window (a forward of 3 messages into 2 chats costs 6). */
  count: number;
  windowMs: number;
  key: LimitKeyKind;
}

/** Who is acting. `scope` narrows the counter further (a chat id for typing). */
export interface LimitSubject {
  user?: number | string | null;
  ip?: string | null;
  scope?: string | number;
}

/**
 * The defaults, documented in the README (“Rate limits”); `RATE_LIMITS` overrides any of them.
 * Modules that land later add their own names with `limits.define` (or a row here).
 */
export const defaultLimits = {
  /** Every message created: HTTP and socket sends, and each message a forward creates. */
  'message.send': { count: 60, windowMs: 60_000, key: 'user' },
  /** New personal chats a user opens by writing to someone (a stranger can be written to; spam cannot). */
  'message.new-chat': { count: 20, windowMs: 60 * 60_000, key: 'user' },
  /** Typing relays per user per chat. */
  'message.typing': { count: 10, windowMs: 3_000, key: 'user' },
  'comment.create': { count: 20, windowMs: 60_000, key: 'user' },
  /** Likes, saves and reposts, on and off. */
  'post.action': { count: 120, windowMs: 60_000, key: 'user' },
  'profile.follow': { count: 60, windowMs: 10 * 60_000, key: 'user' },
  'upload.post': { count: 30, windowMs: 60 * 60_000, key: 'user' },
  /** Counted per file. */
  'upload.attachment': { count: 60, windowMs: 10 * 60_000, key: 'user' },
  'upload.avatar': { count: 10, windowMs: 10 * 60_000, key: 'user' },
  /** User search, chat search, message search. */
  search: { count: 60, windowMs: 60_000, key: 'user' },
  /** Stories: each upload is a transcode job (video), so fewer than posts. */
  'story.upload': { count: 20, windowMs: 60 * 60_000, key: 'user' },
  /** Story likes, on and off. */
  'story.like': { count: 120, windowMs: 60_000, key: 'user' },
  /** Live chat messages: a stream's chat is fanned out to every viewer at once. */
  'live.chat': { count: 20, windowMs: 10_000, key: 'user' },
  /** Calls started: each one rings the callee's devices and sends a push. */
  'call.start': { count: 20, windowMs: 10 * 60_000, key: 'user' },
  /** Voice chat starts and joins: each mints a media token and is announced to the whole group. */
  'voice.join': { count: 30, windowMs: 10 * 60_000, key: 'user' },
  'group.create': { count: 10, windowMs: 60 * 60_000, key: 'user' },
  'channel.create': { count: 10, windowMs: 60 * 60_000, key: 'user' },
  'auth.register': { count: 30, windowMs: 15 * 60_000, key: 'ip64' },
  /** Every login attempt from one address (or /64). */
  'auth.login': { count: 30, windowMs: 15 * 60_000, key: 'ip64' },
  /** Wrong passwords for one username from one address: that pair alone is refused past it. */
  'auth.login-failure': { count: 10, windowMs: 15 * 60_000, key: 'user+ip' },
  /** Wrong passwords for one username from anywhere: never refuses; past a few, guesses need a login challenge. */
  'auth.username-failures': { count: 1_000_000, windowMs: 15 * 60_000, key: 'user' },
} satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof defaultLimits;

/** A 429 carrying when to come back; the error handler sends `Retry-After`, the socket acks `retry_after`. */
export class RateLimitedError extends AppError {
  constructor(
    readonly limit: string,
    readonly retryAfterMs: number,
  ) {
    super(429, ErrorCode.rateLimited, ErrorText.rateLimited);
  }

  /** Whole seconds, at least 1, as `Retry-After` wants them. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.retryAfterMs / 1000));
  }
}

export interface RateLimits {
  /** Counts `cost` units against the named limit; throws `RateLimitedError` (nothing counted) when over. */
  consume(name: string, subject: LimitSubject, cost?: number): Promise<void>;
  /** Throws like `consume` would for one more unit, counting nothing. */
  check(name: string, subject: LimitSubject): Promise<void>;
  /** Units counted in the current window. */
  used(name: string, subject: LimitSubject): Promise<number>;
  /** Adds a limit (a module's own name); an override from `RATE_LIMITS` still wins. */
  define(name: string, rule: LimitRule): void;
  rule(name: string): LimitRule;
}

/** The /64 of an IPv6 address (IPv4, and IPv4-mapped IPv6, stay whole). */
export function addressGroup(ip: string): string {
  if (!isIPv6(ip)) return ip;
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.slice(7);
  const [head = '', tail = ''] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

function keyOf(rule: LimitRule, subject: LimitSubject): string {
  const ip = subject.ip ?? 'unknown';
  const user = subject.user ?? null;
  let key: string;
  switch (rule.key) {
    case 'user':
      key = user === null ? `a:${addressGroup(ip)}` : `u:${user}`;
      break;
    case 'ip':
      key = `a:${ip}`;
      break;
    case 'ip64':
      key = `a:${addressGroup(ip)}`;
      break;
    case 'user+ip':
      key = `u:${user ?? ''}|a:${addressGroup(ip)}`;
      break;
  }
  return subject.scope === undefined ? key : `${key}|s:${subject.scope}`;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * `RATE_LIMITS="message.send=100/1m,search=30/10s"`: count per window (ms, s, m or h) for named limits.
 * Throws with the offending entry, so a typo stops the server at start.
 */
export function parseLimitOverrides(
  text: string | undefined,
): Record<string, { count: number; windowMs: number }> {
  const out: Record<string, { count: number; windowMs: number }> = {};
  for (const entry of (text ?? '').split(',').map((s) => s.trim())) {
    if (entry === '') continue;
    const m = /^([a-z0-9.+-]+)=(\d+)\/(\d+)(ms|s|m|h)$/i.exec(entry);
    if (!m)
      throw new Error(`RATE_LIMITS entry "${entry}" is not name=count/window (window like 10s, 1m, 1h)`);
    const windowMs = Number(m[3]) * (UNITS[m[4]!.toLowerCase()] ?? 1);
    if (windowMs < 1) throw new Error(`RATE_LIMITS entry "${entry}" has an empty window`);
    out[m[1]!] = { count: Number(m[2]), windowMs };
  }
  return out;
}

/** The named limits over one counter store (memory on one node, Redis when nodes share limits). */
export function createLimits(
  store: RateLimiter,
  overrides: Record<string, { count: number; windowMs: number }> = {},
): RateLimits {
  const rules = new Map<string, LimitRule>();
  const define = (name: string, rule: LimitRule) => {
    const o = overrides[name];
    rules.set(name, o ? { ...rule, ...o } : rule);
  };
  for (const [name, rule] of Object.entries(defaultLimits)) define(name, rule);

  const rule = (name: string): LimitRule => {
    const r = rules.get(name);
    if (!r) throw new Error(`unknown rate limit "${name}" (add it to defaultLimits or limits.define it)`);
    return r;
  };

  async function take(name: string, subject: LimitSubject, cost: number) {
    const r = rule(name);
    const result = await store.take(`${name}:${keyOf(r, subject)}`, cost, r.count, r.windowMs);
    if (!result.allowed) throw new RateLimitedError(name, result.retryAfterMs || r.windowMs);
    return result;
  }

  return {
    async consume(name, subject, cost = 1) {
      await take(name, subject, Math.max(1, Math.ceil(cost)));
    },
    async check(name, subject) {
      await take(name, subject, 0);
    },
    async used(name, subject) {
      const r = rule(name);
      return (await store.take(`${name}:${keyOf(r, subject)}`, 0, Number.MAX_SAFE_INTEGER, r.windowMs)).used;
    },
    define,
    rule,
  };
}
