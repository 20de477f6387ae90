import { channelsRoutes } from '@kadr/contract/channels/routes';
import { registerRoutes } from '../../lib/route.ts';
import { joinRoomsOnConnect } from '../groups/room-parts.ts';
import { defineModule } from '../module.ts';
import { channelsMigrations } from './migrations.ts';
import { channelsRepository } from './repository.ts';
import { channelsService } from './service.ts';

export const channelsModule = defineModule({
  name: 'channels',
  migrations: channelsMigrations,
  async register(api, ctx) {
    const channels = channelsService({
      repo: channelsRepository(ctx.db.kysely),
      messages: ctx.messenger.messages,
      gateway: ctx.gateway,
      limits: ctx.limits,
      reach: ctx.settings.reach,
      invitations: ctx.invitations,
    });
    ctx.invitations.onAccept('channel_admin', (invitation) =>
      channels.acceptAdminInvitation(
        invitation.inviter_id,
        invitation.place_id,
        invitation.invitee_id,
        invitation.rights,
      ),
    );

    joinRoomsOnConnect(ctx.gateway, 'channel', channels.idsFor, api.log);

    const ok = { ok: true as const };
    registerRoutes(
      api,
      channelsRoutes,
      {
        list: async (req) => ({ channels: await channels.list(req.userId) }),
        create: (req) => channels.create(req.userId, req.body),
        get: (req) => channels.get(req.userId, req.params.id),
        search: async (req) => ({ channels: await channels.searchPublic(req.userId, req.query.q) }),
        bySlug: (req) => channels.bySlug(req.userId, req.params.slug),
        remove: async (req) => {
          await channels.remove(req.userId, req.params.id);
          return ok;
        },
        subscribe: (req) => channels.subscribe(req.userId, req.params.id),
        unsubscribe: async (req) => {
          await channels.unsubscribe(req.userId, req.params.id);
          return ok;
        },
        subscribers: (req) =>
          channels.subscribers(req.userId, req.params.id, req.query.limit ?? 50, req.query.offset ?? 0),
        admins: async (req) => ({ admins: await channels.admins(req.userId, req.params.id) }),
        addAdmin: (req) => channels.addAdmin(req.userId, req.params.id, req.body),
        updateAdmin: async (req) => ({
          admins: await channels.updateAdmin(req.userId, req.params.id, req.params.userId, req.body),
        }),
        removeAdmin: async (req) => ({
          admins: await channels.removeAdmin(req.userId, req.params.id, req.params.userId),
        }),
        posts: (req) =>
          channels.posts(req.userId, req.params.id, req.query.limit ?? 30, req.query.offset ?? 0),
        read: (req) => channels.read(req.userId, req.params.id),
      },
      { tag: 'channels' },
    );
    return { services: channels };
  },
});
