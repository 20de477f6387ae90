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
  /** The clock of the caches' lives (tests move it). */
  now?: () => number;
}) {
  const { repo, bus } = deps;
  const now = deps.now ?? Date.now;
  const settings = new TtlCache<number, Settings>(50_000, TTL_MS, now);
  const blocks = new TtlCache<number, Set<number>>(50_000, TTL_MS, now);
  const blockers = new TtlCache<number, Set<number>>(50_000, TTL_MS, now);
  const follows = new TtlCache<string, boolean>(200_000, TTL_MS, now);
  // In-flight loads by key (`s1`, `b1`, `r1`, `f1:2`), so a burst of sends for one cold user costs one query.
  const loading = new Map<string, Promise<unknown>>();
  // Loads and changes in the order they happened, and each key's last change on that count: a load that began
  // before a change read what the change replaced, so it does not store it. Kept for an entry's life.
  let ticks = 0;
  const changedAt = new TtlCache<string, number>(250_000, TTL_MS, now, 0);

  /**
   * The cached value, or one load of it. An entry in the last quarter of its life is answered at once and loaded
   * again in the background: entries set together (every user's, as a crowd comes online) would otherwise lapse
   * together and be reloaded on the path of the sends that found them gone. A load stores its value only if
   * its key did not change after it began, so a block is never undone by a read that raced with it.
   */
  function cached<K, V>(cache: TtlCache<K, V>, tag: string, load: (key: K) => Promise<V>) {
    function reload(key: K, name: string): Promise<V> {
      const running = loading.get(name) as Promise<V> | undefined;
      if (running) return running;
      const began = ++ticks;
      const p = load(key).then((value) => {
        if ((changedAt.get(name) ?? 0) < began) cache.set(key, value);
        return value;
      });
      const settled = p.finally(() => {
        if (loading.get(name) === settled) loading.delete(name);
      });
      loading.set(name, settled);
      return settled;
    }
    return async (key: K): Promise<V> => {
      const name = `${tag}${key}`;
      const value = cache.get(key);
      if (value === undefined) return reload(key, name);
      if ((cache.lifeLeft(key) ?? 0) < TTL_MS / 4) reload(key, name).catch(() => {});
      return value;
    };
  }

  const listeners: Array<(userId: number) => void> = [];

  /** A key's cached value and any load of it under way are forgotten; a load that began before is not stored. */
  function changed(name: string) {
    changedAt.set(name, ++ticks);
    loading.delete(name);
  }

  function forget(userId: number) {
    settings.delete(userId);
    blocks.delete(userId);
    blockers.delete(userId);
    for (const tag of ['s', 'b', 'r']) changed(`${tag}${userId}`);
    for (const listener of listeners) listener(userId);
  }
  await bus.subscribe(CHANGED_CHANNEL, (message) => forget(Number(message)));
  deps.onFollowChange((pair) => {
    const key = `${pair[0]}:${pair[1]}`;
    follows.delete(key);
    changed(`f${key}`);
  });

  const settingsOf = cached(settings, 's', async (userId: number) =>
    mergeSettings(defaultSettings(), await repo.settings(userId)),
  );
  const blockedBy = cached(blocks, 'b', async (userId: number) => new Set(await repo.blockedIds(userId)));
  /** Who blocked `userId` (a block is announced for both people, so this is forgotten with theirs). */
  const blockersOf = cached(blockers, 'r', async (userId: number) => new Set(await repo.blockerIds(userId)));
  const following = cached(follows, 'f', (key: string) => {
    const [follower, followee] = key.split(':').map(Number) as [number, number];
    return repo.follows(follower, followee);
  });
  /** Whether `follower` follows `followee`. */
  const isFollowing = (follower: number, followee: number) => following(`${follower}:${followee}`);

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
