import { ErrorCode, ErrorText } from '@kadr/contract';
import { AppError } from '../../lib/errors.ts';
import type { PrivacyLookups } from './privacy.ts';

/** What one person tries to do to another; picks the Russian reason of a refusal. */
export type ReachAct = 'add' | 'follow' | 'interact' | 'stream';

const TEXTS: Record<ReachAct, { blocked: string; blockedByMe: string }> = {
  add: { blocked: ErrorText.blockedAdd, blockedByMe: ErrorText.blockedByMeAdd },
  follow: { blocked: ErrorText.blockedFollow, blockedByMe: ErrorText.blockedByMeFollow },
  interact: { blocked: ErrorText.blockedInteract, blockedByMe: ErrorText.blockedByMeInteract },
  stream: { blocked: ErrorText.blockedStream, blockedByMe: ErrorText.blockedByMeStream },
};

/** Whether `actor` may put `target` into a group or channel: at once, only by invitation, or not at all. */
export type AddDecision = 'add' | 'invite' | 'blocked';

/**
 * Who may reach whom: the one place every route and socket event asks (docs/security.md «Blocks and
 * reach»). A block either way is a wall — no messages, adding, follows, likes, comments, reposts,
 * replies, mentions, notifications, typing, presence, calls, voice invitations or live-stream viewing —
 * and the privacy settings narrow what is left. Answers come from the settings module's per-node caches
 * (block sets, settings, follows), so asking costs no query on a warm path.
 */
export function reachPolicy(privacy: PrivacyLookups) {
  const { isBlocked, settingsOf, isFollowing } = privacy;

  /** A block in either direction between the two (never between a person and themselves). */
  async function walled(a: number, b: number): Promise<boolean> {
    if (a === b) return false;
    return (await isBlocked(a, b)) || (await isBlocked(b, a));
  }

  /** The 403 that says why `actor` may not do `act` to `target`; nothing when no block stands between them. */
  async function assertNoWall(actor: number, target: number, act: ReachAct): Promise<void> {
    if (actor === target) return;
    if (await isBlocked(target, actor)) throw new AppError(403, ErrorCode.blocked, TEXTS[act].blocked);
    if (await isBlocked(actor, target))
      throw new AppError(403, ErrorCode.blockedByMe, TEXTS[act].blockedByMe);
  }

  async function canAddToChat(actor: number, target: number): Promise<AddDecision> {
    if (actor === target) return 'add';
    if (await walled(actor, target)) return 'blocked';
    const audience = (await settingsOf(target)).privacy.group_add;
    if (audience === 'everyone') return 'add';
    if (audience === 'following' && (await isFollowing(target, actor))) return 'add';
    return 'invite';
  }

  /** «Закрытый аккаунт» (cached settings). */
  async function isPrivate(userId: number): Promise<boolean> {
    return (await settingsOf(userId)).privacy.private_account;
  }

  /**
   * Whether `viewer` may see `owner`'s posts, stories and follow lists: their own, a public account's,
   * or a private account's they follow.
   */
  async function canSeeWork(viewer: number | null, owner: number): Promise<boolean> {
    if (viewer === owner) return true;
    if (!(await isPrivate(owner))) return true;
    return viewer !== null && (await isFollowing(viewer, owner));
  }

  /** Everyone walled off from `userId`, either direction (two cached sets): for filtering lists and rooms. */
  async function walledOf(userId: number): Promise<ReadonlySet<number>> {
    const [mine, theirs] = await Promise.all([privacy.blockedBy(userId), privacy.blockersOf(userId)]);
    if (theirs.size === 0) return mine;
    if (mine.size === 0) return theirs;
    return new Set([...mine, ...theirs]);
  }

  return {
    walled,
    walledOf,
    isPrivate,
    canSeeWork,
    /** 403 «Это закрытый аккаунт» for a non-follower of a private account. */
    assertCanSeeWork: async (viewer: number, owner: number) => {
      if (!(await canSeeWork(viewer, owner)))
        throw new AppError(403, ErrorCode.privateAccount, ErrorText.privateAccount);
    },
    /** The people `userId` blocked (cached). */
    blockedBy: privacy.blockedBy,
    /** The people who blocked `userId` (cached). */
    blockersOf: privacy.blockersOf,
    /** Personal messages: blocks and the target's «who can message me» (the existing 403 family). */
    assertCanMessage: privacy.assertCanMessage,
    /** Calls and voice-chat invitations: blocks and «who can call me». */
    assertCanCall: privacy.assertCanCall,
    canAddToChat,
    /** Adding to a group or channel, re-adding, appointing an administrator: a block refuses with 403. */
    assertCanAdd: (actor: number, target: number) => assertNoWall(actor, target, 'add'),
    assertCanFollow: (actor: number, target: number) => assertNoWall(actor, target, 'follow'),
    /** A like, comment, repost or reply on something of `owner`'s. */
    assertCanInteract: (actor: number, owner: number) => assertNoWall(actor, owner, 'interact'),
    canInteract: async (actor: number, owner: number) => !(await walled(actor, owner)),
    /** A viewer token or join on `host`'s live stream. */
    assertCanJoinStream: (viewer: number, host: number) => assertNoWall(viewer, host, 'stream'),
    canJoinStream: async (viewer: number, host: number) => !(await walled(viewer, host)),
    /** A notification (like, comment, mention, reply, follow, invitation) from `from` to `to`. */
    canNotify: async (from: number, to: number) => !(await walled(from, to)),
    /** Typing relay between two people (in a shared group too). */
    canSeeTyping: async (viewer: number, typist: number) => !(await walled(viewer, typist)),
    /** Whether `author` is hidden from `viewer` in lists (people search, viewers). */
    isHiddenFrom: (viewer: number, author: number) => walled(viewer, author),
  };
}

export type ReachPolicy = ReturnType<typeof reachPolicy>;
