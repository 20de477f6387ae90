import {
  type ActiveSession,
  type ChatMute,
  type ChatTarget,
  ErrorCode,
  ErrorText,
  type MuteDuration,
  type Settings,
  type SettingsPatch,
} from '@kadr/contract';
import type { AppContext } from '../../app-types.ts';
import { AppError, errors } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { passwordProblem } from '../auth/validation.ts';
import type { CallsService } from '../calls/service.ts';
import type { GroupsService } from '../groups/service.ts';
import type { LivestreamsService } from '../livestreams/service.ts';
import type { VoiceService } from '../voice/service.ts';
import { applyPatch } from './defaults.ts';
import type { PrivacyLookups } from './privacy.ts';
import type { SettingsRepository } from './repository.ts';

const HOUR = 3_600_000;
const iso = (d: Date | string) => new Date(d).toISOString();

/** Settings sections (spec §2.3): preferences, password, sessions, account deletion, blocks, mutes. */
export function settingsService(deps: {
  repo: SettingsRepository;
  privacy: PrivacyLookups;
  ctx: AppContext;
}) {
  const { repo, privacy, ctx } = deps;

  async function checkPassword(userId: number, password: string) {
    await ctx.limits.consume('settings.password', { user: userId });
    const row = await repo.passwordHash(userId);
    if (!row) throw errors.unauthorized();
    if (!(await verifyPassword(row.password_hash, password)))
      throw new AppError(403, ErrorCode.wrongPassword, ErrorText.wrongPassword, {
        current_password: ErrorText.wrongPassword,
      });
  }

  async function target(username: string) {
    const user = await repo.userByUsername(username);
    if (!user) throw errors.notFound(ErrorText.userNotFound);
    return user;
  }

  /**
   * The modules that own live media rooms register after settings (modules/index.ts), so their services
   * are read when an account goes, not when this one is built.
   */
  const mediaOwners = () => ({
    groups: ctx.modules.groups as GroupsService | undefined,
    livestreams: ctx.modules.livestreams as LivestreamsService | undefined,
    calls: ctx.modules.calls as CallsService | undefined,
    voice: ctx.modules.voice as VoiceService | undefined,
  });

  /**
   * Ends what the user runs through each owner's own end path, before the cascade takes the rows away
   * unheard: their live stream, their call, their place in voice chats (and the voice sessions they
   * started). Answers the groups they own, which the cascade deletes. A failure here never keeps the
   * account from going: it is logged and the rest goes on.
   */
  async function endLiveMedia(userId: number): Promise<number[]> {
    const { groups, livestreams, calls, voice } = mediaOwners();
    const attempt = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await run();
      } catch (err) {
        ctx.log.error({ err, userId }, `account deletion: ${what} failed`);
        return undefined;
      }
    };
    await attempt('ending the live stream', async () => livestreams?.endForUser(userId));
    await attempt('ending the call', async () => calls?.endForUser(userId));
    const mine = (await attempt('listing the groups', async () => groups?.list(userId))) ?? [];
    for (const group of mine)
      await attempt(`leaving the voice chat of group ${group.id}`, async () =>
        voice?.accountGone(group.id, userId),
      );
    // Anything else they are still connected to (a stream they watch or guest on, a voice chat of a group
    // they left): a LiveKit token cannot be revoked, so the rooms let them go.
    await attempt('leaving the media rooms', () => ctx.mediaPlane.disconnectEverywhere(userId));
    return mine.filter((g) => g.owner_id === userId).map((g) => g.id);
  }

  /** The conversation a chat target names, for the caller (who must be in it). */
  async function conversationOf(userId: number, chat: ChatTarget): Promise<number> {
    const { messages } = ctx.messenger;
    if ('is_favorites' in chat) return (await messages.tools.openChat(userId, userId)).conversation.id;
    // Muting never opens a chat with someone who never wrote (nor unlocks typing to them).
    if ('chat_user_id' in chat) {
      const found = await messages.tools.findChat(userId, chat.chat_user_id);
      if (!found) throw errors.notFound(ErrorText.chatNotFound);
      return found.conversation.id;
    }
    const kind = 'group_id' in chat ? 'group' : 'channel';
    const found = await messages.roomChatOrNull(
      userId,
      kind,
      'group_id' in chat ? chat.group_id : chat.channel_id,
    );
    if (!found) throw errors.notFound(kind === 'group' ? ErrorText.groupNotFound : ErrorText.channelNotFound);
    if (!found.me) throw errors.forbidden(ErrorText.chatUnavailable);
    return found.conversation.id;
  }

  return {
    get: (userId: number): Promise<Settings> => privacy.settingsOf(userId),

    async update(userId: number, patch: SettingsPatch): Promise<Settings> {
      const before = await privacy.settingsOf(userId);
      const next = applyPatch(before, patch);
      await repo.saveSettings(userId, next);
      await privacy.changed(userId);
      // Opening a private account lets every waiting follow request in, as accepting each would.
      if (before.privacy.private_account && !next.privacy.private_account) {
        for (const followerId of await ctx.profiles.acceptAllFollowRequests(userId))
          ctx.events.emit('user.followed', { followerId, followeeId: userId });
      }
      // Who hears my presence may have changed: the cached audiences elsewhere are per request, nothing to drop.
      return next;
    },

    /** Ends every other session: their tokens answer 401 and their sockets are dropped on every node. */
    async changePassword(userId: number, token: string, current: string, next: string) {
      await checkPassword(userId, current);
      const username = (await repo.usernamesOf([userId])).get(userId) ?? null;
      const problem = await passwordProblem(next, username);
      if (problem) throw errors.validation({ new_password: problem }, problem);
      await repo.setPasswordHash(userId, await hashPassword(next));
      const mine = ctx.auth.sessionId(token);
      const others = (await repo.openTokenHashes(userId)).filter((h) => h !== mine);
      await ctx.auth.endSessions(others);
      return { ended_sessions: others.length };
    },

    async sessions(userId: number, token: string): Promise<ActiveSession[]> {
      const mine = ctx.auth.sessionId(token);
      const rows = await repo.activeSessions(
        userId,
        new Date(Date.now() - ctx.config.sessionIdleTimeoutMs),
        new Date(Date.now() - ctx.config.sessionMaxAgeMs),
      );
      const withPush = await repo.sessionsWithPush(rows.map((r) => r.token_hash));
      return rows.map((r) => ({
        id: r.id,
        user_agent: r.user_agent,
        created_at: iso(r.created_at),
        last_used_at: iso(r.last_used_at),
        is_current: r.token_hash === mine,
        push: withPush.has(r.token_hash),
      }));
    },

    async endSession(userId: number, id: number) {
      const row = await repo.sessionById(userId, id);
      if (!row) throw errors.notFound(ErrorText.sessionNotFound);
      await ctx.auth.endSessions([row.token_hash]);
      return { ok: true as const };
    },

    /**
     * Policy: docs/account-deletion.md. Sessions end first (sockets drop, nothing new can start), then
     * the user's live media rooms, then the rows go.
     */
    async deleteAccount(userId: number, password: string) {
      await checkPassword(userId, password);
      const sessions = await repo.openTokenHashes(userId);
      await ctx.auth.endSessions(sessions);
      const ownedGroups = await endLiveMedia(userId);
      await repo.deleteUser(userId);
      // The cascade deleted them as the owner's own delete would: listeners close their voice rooms.
      for (const groupId of ownedGroups) ctx.events.emit('group.deleted', { groupId });
      await ctx.profiles.invalidate([userId]);
      await privacy.changed(userId);
      return { ok: true as const };
    },

    async blocked(userId: number) {
      return { users: await repo.blockedUsers(userId) };
    },

    async setBlock(userId: number, username: string, on: boolean) {
      const user = await target(username);
      if (user.id === userId)
        throw errors.validation({ username: ErrorText.cannotBlockSelf }, ErrorText.cannotBlockSelf);
      await repo.setBlock(userId, user.id, on);
      // A block ends the follows both ways; unblocking restores none of them.
      if (on) {
        await ctx.profiles.unfollowBoth(userId, user.id);
        await ctx.invitations.endBetween(userId, user.id);
      }
      await privacy.changed(userId);
      // The blocked person's «who blocked me» is cached under their id.
      await privacy.changed(user.id);
      return { is_blocked: on };
    },

    async mute(userId: number, chat: ChatTarget, duration: MuteDuration) {
      const conversationId = await conversationOf(userId, chat);
      const until =
        duration === 'off'
          ? 'off'
          : duration === 'forever'
            ? null
            : new Date(Date.now() + (duration === '1h' ? 1 : 8) * HOUR);
      await repo.setMute(userId, conversationId, until);
      return {
        is_muted: until !== 'off',
        muted_until: until instanceof Date ? until.toISOString() : null,
      };
    },

    async mutes(userId: number): Promise<{ mutes: ChatMute[] }> {
      const rows = await repo.mutes(userId);
      return {
        mutes: rows.map((r) => {
          let chat: ChatTarget;
          if (r.type === 'favorites') chat = { is_favorites: true };
          else if (r.type === 'personal')
            chat = { chat_user_id: (r.user_low === userId ? r.user_high : r.user_low) as number };
          else if (r.type === 'group') chat = { group_id: r.id };
          else chat = { channel_id: r.id };
          return { chat, muted_until: r.muted_until ? iso(r.muted_until) : null };
        }),
      };
    },
  };
}

export type SettingsService = ReturnType<typeof settingsService>;
