import { ErrorCode, ErrorText, type Settings } from '@kadr/contract';
import type { Bus } from '../../lib/bus.ts';
import { AppError } from '../../lib/errors.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { defaultSettings, mergeSettings } from './defaults.ts';
import type { SettingsRepository } from './repository.ts';

const CHANGED_CHANNEL = 'kadr:settings-changed';
const TTL_MS = 60_000;

const refused = (code: string, text: string) => new AppError(403, code, text);

/**
 * Privacy lookups on hot paths (every personal message, profile and chat-list answer, presence):
 * each user's settings and block list, and "does A follow B", cached per node. A change is published on
 * the bus so every node forgets it at once; the TTL only bounds memory and a missed notice.
 */
export async function privacyLookups(deps: {
  repo: SettingsRepository;
  bus: Bus;
  /** Hears follow changes on every node (ProfilesService.onChange). */
  onFollowChange(listener: (pair: [number, number]) => void): void;
}) {
  const { repo, bus } = deps;
  const settings = new TtlCache<number, Settings>(50_000, TTL_MS);
  const blocks = new TtlCache<number, Set<number>>(50_000, TTL_MS);
  const blockers = new TtlCache<number, Set<number>>(50_000, TTL_MS);
  const follows = new TtlCache<string, boolean>(200_000, TTL_MS);
  // In-flight loads, so a burst of sends for one cold user costs one query.
  const loading = new Map<string, Promise<unknown>>();

  function once<T>(key: string, load: () => Promise<T>): Promise<T> {
    const running = loading.get(key) as Promise<T> | undefined;
    if (running) return running;
    const p = load().finally(() => loading.delete(key));
    loading.set(key, p);
    return p;
  }

  const listeners: Array<(userId: number) => void> = [];

  function forget(userId: number) {
    settings.delete(userId);
    blocks.delete(userId);
    blockers.delete(userId);
    for (const listener of listeners) listener(userId);
  }
  await bus.subscribe(CHANGED_CHANNEL, (message) => forget(Number(message)));
  deps.onFollowChange((pair) => follows.delete(`${pair[0]}:${pair[1]}`));

  async function settingsOf(userId: number): Promise<Settings> {
    const cached = settings.get(userId);
    if (cached) return cached;
    return once(`s${userId}`, async () => {
      const value = mergeSettings(defaultSettings(), await repo.settings(userId));
      settings.set(userId, value);
      return value;
    });
  }

  async function blockedBy(userId: number): Promise<Set<number>> {
    const cached = blocks.get(userId);
    if (cached) return cached;
    return once(`b${userId}`, async () => {
      const value = new Set(await repo.blockedIds(userId));
      blocks.set(userId, value);
      return value;
    });
  }

  /** Who blocked `userId` (a block is announced for both people, so this is forgotten with theirs). */
  async function blockersOf(userId: number): Promise<Set<number>> {
    const cached = blockers.get(userId);
    if (cached) return cached;
    return once(`r${userId}`, async () => {
      const value = new Set(await repo.blockerIds(userId));
      blockers.set(userId, value);
      return value;
    });
  }

  /** Whether `follower` follows `followee`. */
  async function isFollowing(follower: number, followee: number): Promise<boolean> {
    const key = `${follower}:${followee}`;
    const cached = follows.get(key);
    if (cached !== undefined) return cached;
    return once(`f${key}`, async () => {
      const value = await repo.follows(follower, followee);
      follows.set(key, value);
      return value;
    });
  }

  const isBlocked = async (blocker: number, target: number) => (await blockedBy(blocker)).has(target);

  /** Throws the 403 that says why `from` may not reach `to` (a message or a call). */
  async function assertContact(from: number, to: number, kind: 'messages' | 'calls') {
    if (from === to) return;
    if (await isBlocked(to, from))
      throw refused(
        ErrorCode.blocked,
        kind === 'messages' ? ErrorText.blockedMessage : ErrorText.blockedCall,
      );
    if (await isBlocked(from, to))
      throw refused(
        ErrorCode.blockedByMe,
        kind === 'messages' ? ErrorText.blockedByMeMessage : ErrorText.blockedByMeCall,
      );
    const audience = (await settingsOf(to)).privacy[kind];
    if (audience === 'nobody') throw refused(ErrorCode.messagesRestricted, ErrorText.messagesClosed);
    if (audience === 'following' && !(await isFollowing(to, from)))
      throw kind === 'messages'
        ? refused(ErrorCode.messagesRestricted, ErrorText.messagesRestricted)
        : refused(ErrorCode.callsRestricted, ErrorText.callsRestricted);
  }

  /** Whether `viewer` may see `owner`'s last seen and online. */
  async function canSeePresence(owner: number, viewer: number): Promise<boolean> {
    if (owner === viewer) return true;
    const mode = (await settingsOf(owner)).privacy.last_seen;
    if (mode === 'nobody') return false;
    if ((await isBlocked(owner, viewer)) || (await isBlocked(viewer, owner))) return false;
    if (mode === 'everyone') return true;
    return isFollowing(owner, viewer);
  }

  return {
    settingsOf,
    blockedBy,
    blockersOf,
    isBlocked,
    isFollowing,
    assertCanMessage: (from: number, to: number) => assertContact(from, to, 'messages'),
    assertCanCall: (from: number, to: number) => assertContact(from, to, 'calls'),
    canSeePresence,
    /** Of `viewers`, those who may see `owner`'s presence (the audience of `online` events). */
    async presenceAudience(owner: number, viewers: number[]): Promise<number[]> {
      const out: number[] = [];
      for (const v of viewers) if (await canSeePresence(owner, v)) out.push(v);
      return out;
    },
    /** Of `owners`, those whose presence `viewer` may see (`presence:query`, lists). */
    async visibleTo(viewer: number, owners: number[]): Promise<number[]> {
      const out: number[] = [];
      for (const o of owners) if (await canSeePresence(o, viewer)) out.push(o);
      return out;
    },
    /** A block either way: neither sees (nor likes, nor answers) the other's stories. */
    canSeeStories: async (owner: number, viewer: number) => {
      if (owner === viewer) return true;
      if ((await isBlocked(owner, viewer)) || (await isBlocked(viewer, owner))) return false;
      // «Закрытый аккаунт»: the stories are for followers.
      return !(await settingsOf(owner)).privacy.private_account || (await isFollowing(viewer, owner));
    },
    /** Hears every settings or blocks change of a user, on every node (the stories feed's pages). */
    onChange(listener: (userId: number) => void) {
      listeners.push(listener);
    },
    /** After a write of `userId`'s settings or blocks: forgotten here and on every node. */
    async changed(userId: number) {
      forget(userId);
      await bus.publish(CHANGED_CHANNEL, String(userId));
    },
  };
}

export type PrivacyLookups = Awaited<ReturnType<typeof privacyLookups>>;
