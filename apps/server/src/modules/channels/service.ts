import {
  type AddAdminBody,
  type AdminRightsBody,
  type Channel,
  type ChannelAdmin,
  type ChannelPostsResponse,
  type ChannelUpdatedEvent,
  type CreateChannelBody,
  ErrorText,
} from '@kadr/contract';
import { errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import { roomSockets, slugTaken } from '../groups/room-parts.ts';
import type { InvitationsService } from '../invitations/service.ts';
import type { MessagesService } from '../messenger/service.ts';
import type { ReachPolicy } from '../settings/reach.ts';
import type { ChannelMemberRow, ChannelRow, ChannelsRepository } from './repository.ts';

function toChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    avatar_url: row.avatar_url,
    is_public: row.is_public,
    subscribers_count: row.subscribers_count,
    is_subscribed: row.role !== null,
    can_post: row.can_post === true,
    role: row.role,
    owner_id: row.owner_id,
    created_at: new Date(row.created_at).toISOString(),
    last_post: row.last_post,
    last_post_time: row.last_post_time ? new Date(row.last_post_time).toISOString() : null,
  };
}

const toAdmin = (m: ChannelMemberRow): ChannelAdmin => ({
  ...m,
  role: m.role === 'owner' ? 'owner' : 'admin',
});

/**
 * Channels: subscribing, administrators and their rights, deletion. Posts go through the messenger's
 * send path (`channel_id`), which lets only administrators with `can_post` publish. A private channel
 * is seen and joined only by those an administrator adds; its mention link shows nothing to others.
 */
export function channelsService(deps: {
  repo: ChannelsRepository;
  messages: MessagesService;
  gateway: Gateway;
  limits: RateLimits;
  reach: ReachPolicy;
  invitations: InvitationsService;
}) {
  const { repo, messages, gateway, limits, reach, invitations } = deps;
  const sockets = roomSockets(gateway, 'channel', messages);

  async function load(id: number, viewerId: number): Promise<ChannelRow> {
    const row = await repo.find(id, viewerId);
    if (!row) throw errors.notFound(ErrorText.channelNotFound);
    return row;
  }

  /** Subscribers see the channel; others only a public one (the same 404 for a private one). */
  async function visible(id: number, viewerId: number): Promise<ChannelRow> {
    const row = await load(id, viewerId);
    if (row.role === null && !row.is_public) throw errors.notFound(ErrorText.channelNotFound);
    return row;
  }

  async function asAdmin(id: number, userId: number): Promise<ChannelRow> {
    const row = await visible(id, userId);
    if (row.role !== 'owner' && row.role !== 'admin') throw errors.forbidden(ErrorText.channelAdminOnly);
    return row;
  }

  async function asOwner(id: number, userId: number): Promise<ChannelRow> {
    const row = await visible(id, userId);
    if (row.role !== 'owner') throw errors.forbidden(ErrorText.channelOwnerOnly);
    return row;
  }

  const announce = (event: ChannelUpdatedEvent, alsoUser?: number) => {
    // Rights (`can_post`) and the subscriber count are on the subscribers' chat lists.
    messages.roomChanged(event.channel_id);
    gateway.io.to(sockets.audience(event.channel_id, alsoUser)).emit('channel-updated', event);
  };

  async function appoint(id: number, target: number, rights: Parameters<ChannelsRepository['setAdmin']>[2]) {
    await repo.setAdmin(id, target, rights);
    sockets.join(id, [target]);
    announce({ channel_id: id, change: 'admin-changed', user_id: target }, target);
  }

  return {
    async list(userId: number): Promise<Channel[]> {
      return (await repo.listFor(userId)).map(toChannel);
    },

    async create(userId: number, body: CreateChannelBody): Promise<Channel> {
      const name = body.name.trim();
      if (name === '') throw errors.validation({ name: ErrorText.validationFailed });
      await limits.consume('channel.create', { user: userId });
      let id: number;
      try {
        id = await repo.create({
          ownerId: userId,
          name,
          slug: body.slug,
          description: (body.description ?? '').trim(),
          isPublic: body.is_public ?? true,
        });
      } catch (err) {
        throw slugTaken(err);
      }
      sockets.join(id, [userId]);
      return toChannel(await load(id, userId));
    },

    get: async (userId: number, id: number) => toChannel(await visible(id, userId)),

    /** Public channels by name or address (chat search); subscribed ones come flagged `is_subscribed`. */
    async searchPublic(userId: number, query: string): Promise<Channel[]> {
      if (query.trim().replace(/^@/, '') === '') return [];
      await limits.consume('search', { user: userId });
      return (await repo.searchPublic(query, userId)).map(toChannel);
    },

    async bySlug(userId: number, slug: string): Promise<Channel> {
      const row = await repo.findBySlug(slug, userId);
      if (!row || (row.role === null && !row.is_public)) throw errors.notFound(ErrorText.channelNotFound);
      return toChannel(row);
    },

    async remove(userId: number, id: number): Promise<void> {
      await asOwner(id, userId);
      // After the delete commits: a list refetched on the notice must not read (and cache) the chat again.
      await repo.remove(id);
      announce({ channel_id: id, change: 'deleted' });
      sockets.close(id);
    },

    async subscribe(userId: number, id: number): Promise<Channel> {
      await visible(id, userId);
      if (await repo.subscribe(id, userId)) {
        sockets.join(id, [userId]);
        gateway.emitToUser(userId, 'channel-updated', {
          channel_id: id,
          change: 'subscribed',
          user_id: userId,
        });
      }
      return toChannel(await load(id, userId));
    },

    async unsubscribe(userId: number, id: number): Promise<void> {
      const row = await visible(id, userId);
      if (row.role === 'owner') throw errors.forbidden(ErrorText.ownerCannotUnsubscribe);
      if (row.role === null) return;
      await repo.unsubscribe(id, userId);
      sockets.leave(id, userId);
      gateway.emitToUser(userId, 'channel-updated', {
        channel_id: id,
        change: 'unsubscribed',
        user_id: userId,
      });
    },

    async subscribers(userId: number, id: number, limit: number, offset: number) {
      await asAdmin(id, userId);
      const rows = await repo.subscribers(id, limit + 1, offset);
      return {
        subscribers: rows.slice(0, limit).map(({ user_id, username, name, avatar_url, role }) => ({
          user_id,
          username,
          name,
          avatar_url,
          role,
        })),
        has_more: rows.length > limit,
      };
    },

    /** Subscribers only: a public channel's preview shows its posts, not who runs it with which rights. */
    async admins(userId: number, id: number): Promise<ChannelAdmin[]> {
      const row = await visible(id, userId);
      if (row.role === null) throw errors.forbidden(ErrorText.channelSubscribersOnly);
      return (await repo.admins(id)).map(toAdmin);
    },

    /**
     * Appointing is an invitation the person accepts («Приглашения»); an administrator already only gets
     * the new rights. A block either way refuses both.
     */
    async addAdmin(
      userId: number,
      id: number,
      body: AddAdminBody,
    ): Promise<{ admins: ChannelAdmin[]; invited: number[] }> {
      const row = await asOwner(id, userId);
      if (body.user_id === row.owner_id) throw errors.forbidden(ErrorText.channelOwnerOnly);
      if (!(await repo.userExists(body.user_id))) throw errors.notFound(ErrorText.userNotFound);
      await reach.assertCanAdd(userId, body.user_id);
      const rights = {
        can_post: body.can_post,
        can_edit_others: body.can_edit_others,
        can_delete_others: body.can_delete_others,
      };
      const admins = await repo.admins(id);
      if (!admins.some((a) => a.user_id === body.user_id)) {
        await invitations.invite('channel_admin', id, userId, body.user_id, rights);
        return { admins: admins.map(toAdmin), invited: [body.user_id] };
      }
      await appoint(id, body.user_id, rights);
      return { admins: (await repo.admins(id)).map(toAdmin), invited: [] };
    },

    /** An accepted invitation: the invitee becomes an administrator, if its sender still owns the channel. */
    async acceptAdminInvitation(inviterId: number, id: number, inviteeId: number, rights: unknown) {
      const row = await load(id, inviteeId);
      if (row.owner_id !== inviterId) throw errors.forbidden(ErrorText.channelOwnerOnly);
      const r = (rights ?? {}) as Partial<
        Record<'can_post' | 'can_edit_others' | 'can_delete_others', boolean>
      >;
      await appoint(id, inviteeId, {
        can_post: r.can_post === true,
        can_edit_others: r.can_edit_others === true,
        can_delete_others: r.can_delete_others === true,
      });
    },

    /** The owner changes an administrator's rights in place; 404 when the user is not one. */
    async updateAdmin(
      userId: number,
      id: number,
      target: number,
      rights: AdminRightsBody,
    ): Promise<ChannelAdmin[]> {
      const row = await asOwner(id, userId);
      if (target === row.owner_id) throw errors.forbidden(ErrorText.channelOwnerOnly);
      if (!(await repo.updateRights(id, target, rights)))
        throw errors.notFound(ErrorText.channelAdminNotFound);
      announce({ channel_id: id, change: 'admin-changed', user_id: target }, target);
      return (await repo.admins(id)).map(toAdmin);
    },

    async removeAdmin(userId: number, id: number, target: number): Promise<ChannelAdmin[]> {
      const row = await asOwner(id, userId);
      if (target === row.owner_id) throw errors.forbidden(ErrorText.channelOwnerOnly);
      await repo.demote(id, target);
      announce({ channel_id: id, change: 'admin-changed', user_id: target }, target);
      return (await repo.admins(id)).map(toAdmin);
    },

    /** Posts of a channel: subscribers, or anyone for a public one (the preview). */
    async posts(userId: number, id: number, limit: number, offset: number): Promise<ChannelPostsResponse> {
      await visible(id, userId);
      const found = await messages.roomChatOrNull(userId, 'channel', id);
      if (!found) throw errors.notFound(ErrorText.channelNotFound);
      const viewer = found.me ?? {
        conversation_id: id,
        user_id: userId,
        pin_order: null,
        last_read_id: 0,
        last_delivered_id: 0,
        cleared_up_to: 0,
      };
      return messages.roomPage(userId, found.conversation, viewer, limit, offset, found.me !== undefined);
    },

    async read(userId: number, id: number) {
      return messages.markRoomRead(userId, await messages.roomChat(userId, 'channel', id));
    },

    idsFor: (userId: number) => repo.idsFor(userId),
  };
}

export type ChannelsService = ReturnType<typeof channelsService>;
