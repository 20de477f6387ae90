import { randomBytes } from 'node:crypto';
import {
  type CreateGroupBody,
  ErrorCode,
  ErrorText,
  type Group,
  type GroupMember,
  GroupServiceText,
  type GroupUpdatedEvent,
  type Message,
  type UpdateGroupBody,
} from '@kadr/contract';
import { AppError, errors } from '../../lib/errors.ts';
import { inspectImage } from '../../lib/images.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import { contentKey, type Storage } from '../../storage/storage.ts';
import type { InvitationsService } from '../invitations/service.ts';
import { squareWebp } from '../media/processing/image.ts';
import type { MessagesService } from '../messenger/service.ts';
import type { ReachPolicy } from '../settings/reach.ts';
import type { GroupRow, GroupsRepository } from './repository.ts';
import { roomSockets, slugTaken } from './room-parts.ts';

export const GROUP_AVATAR_SIDE = 512;

const newToken = () => randomBytes(16).toString('base64url');

function toGroup(row: GroupRow): Group {
  const member = row.role !== null;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    avatar_url: row.avatar_url,
    is_public: row.is_public,
    inviteToken: member ? row.invite_token : null,
    isMember: member,
    role: row.role,
    memberCount: row.member_count,
    owner_id: row.owner_id,
    created_at: new Date(row.created_at).toISOString(),
  };
}

const isAdmin = (row: GroupRow) => row.role === 'owner' || row.role === 'admin';

/**
 * Groups: who may create, see, join, manage and leave them. Messages go through the messenger's send
 * path (`POST /messages` with `group_id`, the `send-message` socket event); history and reads through
 * it too. Membership changes move the members' sockets into or out of the group's room on every node.
 */
export function groupsService(deps: {
  repo: GroupsRepository;
  messages: MessagesService;
  gateway: Gateway;
  storage: Storage;
  limits: RateLimits;
  reach: ReachPolicy;
  invitations: InvitationsService;
}) {
  const { repo, messages, gateway, storage, limits, reach, invitations } = deps;

  /**
   * Splits the people an admin names into those added at once and those asked by invitation; a block
   * either way refuses the whole request (403, nobody added).
   */
  async function byReach(actor: number, ids: number[]) {
    const add: number[] = [];
    const invite: number[] = [];
    for (const u of ids) {
      const decision = await reach.canAddToChat(actor, u);
      if (decision === 'blocked') await reach.assertCanAdd(actor, u);
      (decision === 'add' ? add : invite).push(u);
    }
    return { add, invite };
  }

  async function load(id: number, viewerId: number): Promise<GroupRow> {
    const row = await repo.find(id, viewerId);
    if (!row) throw errors.notFound(ErrorText.groupNotFound);
    return row;
  }

  async function asMember(id: number, userId: number): Promise<GroupRow> {
    const row = await load(id, userId);
    if (row.role === null) throw errors.forbidden(ErrorText.notGroupMember);
    return row;
  }

  async function asAdmin(id: number, userId: number): Promise<GroupRow> {
    const row = await asMember(id, userId);
    if (!isAdmin(row)) throw errors.forbidden(ErrorText.groupAdminOnly);
    return row;
  }

  async function asOwner(id: number, userId: number): Promise<GroupRow> {
    const row = await asMember(id, userId);
    if (row.role !== 'owner') throw errors.forbidden(ErrorText.groupOwnerOnly);
    return row;
  }

  const sockets = roomSockets(gateway, 'group', messages);
  /** To the group's room, and to a user no longer (or not yet) in it; each socket hears it once. */
  const announce = (event: GroupUpdatedEvent, alsoUser?: number) => {
    // Title, avatar, members and roles are on the members' chat lists.
    messages.roomChanged(event.group_id);
    gateway.io.to(sockets.audience(event.group_id, alsoUser)).emit('group-updated', event);
  };
  const joinRoom = sockets.join;
  const leaveRoom = sockets.leave;

  async function requireUsers(ids: number[]) {
    const unique = [...new Set(ids)];
    const found = await repo.existingUsers(unique);
    if (found.length !== unique.length) throw errors.notFound(ErrorText.userNotFound);
    return unique;
  }

  /** The group's conversation, for the service lines written into it. */
  const chatOf = (id: number) => ({ id, type: 'group' as const, user_low: null, user_high: null });

  /** A service line into the group's history ("X присоединился(-ась) к группе"); never fails the change. */
  async function line(
    id: number,
    senderId: number,
    text: (names: Map<number, string>) => string,
    ids: number[],
  ) {
    try {
      await messages.postRoomLine(chatOf(id), senderId, text(await repo.names(ids)));
    } catch {
      // The membership change stands without its line.
    }
  }
  const nameIn = (names: Map<number, string>, id: number) => names.get(id) ?? '';

  /** Adds `wanted` to the group as `actor` did it: their removal bar lifted, a service line each. */
  async function addAs(actor: number, id: number, wanted: number[], present: Set<number>) {
    if (wanted.length === 0) return;
    // An admin adding someone back lifts the bar their removal set.
    await repo.clearRemoved(id, wanted);
    // The line goes in before the member: a new member starts with everything before them read, so
    // "X added you" is not an unread message of theirs (the others see it as new).
    for (const u of wanted.filter((w) => !present.has(w)))
      await line(id, actor, (n) => GroupServiceText.added(nameIn(n, actor), nameIn(n, u)), [actor, u]);
    const added = await repo.addMembers(id, wanted);
    joinRoom(id, added);
    for (const u of added) announce({ group_id: id, change: 'member-added', user_id: u }, u);
  }

  async function join(row: GroupRow, userId: number): Promise<Group> {
    if (row.role === null) {
      // Removed by an admin: the link (or a public group's join) does not bring them back.
      if (await repo.wasRemoved(row.id, userId))
        throw new AppError(403, ErrorCode.removedFromGroup, ErrorText.removedFromGroup);
      const added = await repo.addMembers(row.id, [userId]);
      if (added.length > 0) {
        joinRoom(row.id, added);
        announce({ group_id: row.id, change: 'member-added', user_id: userId });
        await line(row.id, userId, (n) => GroupServiceText.joined(nameIn(n, userId)), [userId]);
      }
    }
    return toGroup(await load(row.id, userId));
  }

  return {
    async list(userId: number): Promise<Group[]> {
      return (await repo.listFor(userId)).map(toGroup);
    },

    async create(userId: number, body: CreateGroupBody): Promise<Group> {
      const name = body.name.trim();
      if (name === '') throw errors.validation({ name: ErrorText.validationFailed });
      await limits.consume('group.create', { user: userId });
      const isPublic = body.is_public ?? false;
      if (isPublic && !body.slug)
        throw errors.validation({ slug: ErrorText.publicNeedsSlug }, ErrorText.publicNeedsSlug);
      const named = await requireUsers((body.member_ids ?? []).filter((u) => u !== userId));
      const { add: memberIds, invite } = await byReach(userId, named);
      let id: number;
      try {
        id = await repo.create({
          ownerId: userId,
          name,
          description: (body.description ?? '').trim(),
          isPublic,
          slug: body.slug ?? null,
          inviteToken: newToken(),
          memberIds,
        });
      } catch (err) {
        throw slugTaken(err);
      }
      joinRoom(id, [userId, ...memberIds]);
      for (const u of memberIds)
        gateway.emitToUser(u, 'group-updated', { group_id: id, change: 'member-added', user_id: u });
      for (const u of invite) await invitations.invite('group', id, userId, u);
      return { ...toGroup(await load(id, userId)), invited: invite };
    },

    /** Members see the group; anyone sees a public group's preview. */
    async get(userId: number, id: number): Promise<Group> {
      const row = await load(id, userId);
      if (row.role === null && !row.is_public) throw errors.forbidden(ErrorText.notGroupMember);
      return toGroup(row);
    },

    /** Public groups by name or address (chat search); members' own groups come flagged `isMember`. */
    async searchPublic(userId: number, query: string): Promise<Group[]> {
      if (query.trim().replace(/^@/, '') === '') return [];
      await limits.consume('search', { user: userId });
      return (await repo.searchPublic(query, userId)).map(toGroup);
    },

    async bySlug(userId: number, slug: string): Promise<Group> {
      const row = await repo.findBySlug(slug, userId);
      if (!row || (!row.is_public && row.role === null)) throw errors.notFound(ErrorText.groupNotFound);
      return toGroup(row);
    },

    async update(userId: number, id: number, body: UpdateGroupBody): Promise<Group> {
      const row = await asAdmin(id, userId);
      const isPublic = body.is_public ?? row.is_public;
      const slug = body.slug === undefined ? row.slug : body.slug;
      if (isPublic && !slug)
        throw errors.validation({ slug: ErrorText.publicNeedsSlug }, ErrorText.publicNeedsSlug);
      const name = body.name?.trim();
      if (name === '') throw errors.validation({ name: ErrorText.validationFailed });
      try {
        await repo.update(id, {
          ...(name !== undefined ? { name } : {}),
          ...(body.description !== undefined ? { description: body.description.trim() } : {}),
          ...(body.is_public !== undefined ? { is_public: body.is_public } : {}),
          ...(body.slug !== undefined ? { slug: body.slug } : {}),
        });
      } catch (err) {
        throw slugTaken(err);
      }
      announce({ group_id: id, change: 'updated' });
      return toGroup(await load(id, userId));
    },

    assertAdmin: async (userId: number, id: number): Promise<void> => {
      await asAdmin(id, userId);
    },

    /** Admins set the avatar: the bytes must decode as an image (else 415, nothing stored). */
    async setAvatar(userId: number, id: number, data: Buffer): Promise<Group> {
      await asAdmin(id, userId);
      await limits.consume('upload.avatar', { user: userId });
      await inspectImage(data);
      return this.setAvatarVariant(userId, id, await squareWebp(data, GROUP_AVATAR_SIDE));
    },

    /** Stores a finished square avatar (GROUP_AVATAR_SIDE webp); the demo seeder hands its prepared one here. */
    async setAvatarVariant(userId: number, id: number, avatar: Buffer): Promise<Group> {
      await asAdmin(id, userId);
      const key = contentKey('avatars', avatar, 'webp');
      await storage.put(key, avatar);
      await repo.setAvatar(id, storage.publicUrl(key));
      announce({ group_id: id, change: 'updated' });
      return toGroup(await load(id, userId));
    },

    async remove(userId: number, id: number): Promise<void> {
      await asOwner(id, userId);
      // After the delete commits: a list refetched on the notice must not read (and cache) the chat again.
      await repo.remove(id);
      announce({ group_id: id, change: 'deleted' });
      sockets.close(id);
    },

    async members(userId: number, id: number): Promise<GroupMember[]> {
      await asMember(id, userId);
      return repo.members(id);
    },

    async addMembers(
      userId: number,
      id: number,
      userIds: number[],
    ): Promise<{ members: GroupMember[]; invited: number[] }> {
      await asAdmin(id, userId);
      const present = new Set(await repo.memberIds(id));
      const named = await requireUsers(userIds);
      const { add: wanted, invite } = await byReach(
        userId,
        named.filter((u) => !present.has(u)),
      );
      for (const u of invite) await invitations.invite('group', id, userId, u);
      await addAs(userId, id, wanted, present);
      return { members: await repo.members(id), invited: invite };
    },

    /** An invitation accepted: the invitee joins as if the inviter had added them then. */
    async acceptInvitation(inviterId: number, id: number, inviteeId: number): Promise<void> {
      await load(id, inviteeId);
      const present = new Set(await repo.memberIds(id));
      if (present.has(inviteeId)) return;
      await addAs(inviterId, id, [inviteeId], present);
    },

    /**
     * Removing someone takes an admin (an admin only by the owner; never the owner). The removed
     * member's sockets leave the room at once and their history access goes with the membership. The
     * invite link stays what everyone has (it used to be renewed silently for all): instead the removed
     * person is barred from coming back by it, or by joining a public group, until an admin adds them
     * again — Telegram's removal. «Сбросить ссылку» still renews it on purpose.
     */
    async removeMember(userId: number, id: number, target: number): Promise<void> {
      if (target === userId) return this.leave(userId, id);
      const row = await asAdmin(id, userId);
      const member = (await repo.members(id)).find((m) => m.user_id === target);
      if (!member) throw errors.notFound(ErrorText.userNotFound);
      if (member.role === 'owner' || (member.role === 'admin' && row.role !== 'owner'))
        throw errors.forbidden(ErrorText.groupOwnerOnly);
      await repo.removeMember(id, target);
      await repo.markRemoved(id, target);
      leaveRoom(id, target);
      announce({ group_id: id, change: 'member-removed', user_id: target }, target);
      await line(id, userId, (n) => GroupServiceText.removed(nameIn(n, userId), nameIn(n, target)), [
        userId,
        target,
      ]);
    },

    async leave(userId: number, id: number): Promise<void> {
      const row = await asMember(id, userId);
      if (row.role === 'owner') throw errors.forbidden(ErrorText.ownerCannotLeave);
      await repo.removeMember(id, userId);
      leaveRoom(id, userId);
      announce({ group_id: id, change: 'member-removed', user_id: userId }, userId);
      await line(id, userId, (n) => GroupServiceText.left(nameIn(n, userId)), [userId]);
    },

    async setRole(
      userId: number,
      id: number,
      target: number,
      role: 'admin' | 'member',
    ): Promise<GroupMember[]> {
      await asOwner(id, userId);
      const member = (await repo.members(id)).find((m) => m.user_id === target);
      if (!member) throw errors.notFound(ErrorText.userNotFound);
      if (member.role === 'owner') throw errors.forbidden(ErrorText.groupOwnerOnly);
      if (role === 'admin') await reach.assertCanAdd(userId, target);
      await repo.setRole(id, target, role);
      announce({ group_id: id, change: 'role-changed', user_id: target });
      return repo.members(id);
    },

    async transferOwner(userId: number, id: number, target: number): Promise<Group> {
      await asOwner(id, userId);
      if (target === userId) return toGroup(await load(id, userId));
      const member = (await repo.members(id)).find((m) => m.user_id === target);
      if (!member) throw errors.notFound(ErrorText.userNotFound);
      await reach.assertCanAdd(userId, target);
      await repo.transfer(id, userId, target);
      announce({ group_id: id, change: 'role-changed', user_id: target });
      return toGroup(await load(id, userId));
    },

    async join(userId: number, id: number): Promise<Group> {
      const row = await load(id, userId);
      if (row.role === null && !row.is_public) throw errors.forbidden(ErrorText.notGroupMember);
      return join(row, userId);
    },

    async renewInvite(userId: number, id: number): Promise<string> {
      await asAdmin(id, userId);
      const token = newToken();
      await repo.setToken(id, token);
      announce({ group_id: id, change: 'updated' });
      return token;
    },

    async revokeInvite(userId: number, id: number): Promise<void> {
      await asAdmin(id, userId);
      await repo.setToken(id, null);
      announce({ group_id: id, change: 'updated' });
    },

    async invitePreview(userId: number, token: string): Promise<Group> {
      const row = await repo.findByToken(token, userId);
      if (!row) throw errors.notFound(ErrorText.inviteInvalid);
      return toGroup(row);
    },

    async joinByInvite(userId: number, token: string): Promise<Group> {
      const row = await repo.findByToken(token, userId);
      if (!row) throw errors.notFound(ErrorText.inviteInvalid);
      return join(row, userId);
    },

    /** A page of history (array, chronological) for members only. */
    async messages(userId: number, id: number, limit: number, offset: number): Promise<Message[]> {
      const chat = await messages.roomChat(userId, 'group', id);
      return (await messages.roomPage(userId, chat.conversation, chat.me, limit, offset, true)).messages;
    },

    async read(userId: number, id: number) {
      return messages.markRoomRead(userId, await messages.roomChat(userId, 'group', id));
    },

    idsFor: (userId: number) => repo.idsFor(userId),
  };
}

export type GroupsService = ReturnType<typeof groupsService>;
