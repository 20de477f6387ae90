import { groupsRoutes } from '@kadr/contract/groups/routes';
import { registerRoutes } from '../../lib/route.ts';
import { receiveOneImage } from '../media/upload/multipart.ts';
import { defineModule } from '../module.ts';
import { groupsMigrations } from './migrations.ts';
import { groupsRepository } from './repository.ts';
import { joinRoomsOnConnect } from './room-parts.ts';
import { groupsService } from './service.ts';

declare module '../../lib/events.ts' {
  interface DomainEvents {
    /** `userId` left group `groupId` or was removed from it (the voice chat lets them go). */
    'group.member-left': { groupId: number; userId: number };
    /** Group `groupId` was deleted, with its members and voice sessions. */
    'group.deleted': { groupId: number };
  }
}

export const groupsModule = defineModule({
  name: 'groups',
  migrations: groupsMigrations,
  async register(api, ctx) {
    const groups = groupsService({
      repo: groupsRepository(ctx.db.kysely),
      messages: ctx.messenger.messages,
      gateway: ctx.gateway,
      storage: ctx.storage,
      limits: ctx.limits,
      reach: ctx.settings.reach,
      invitations: ctx.invitations,
    });
    ctx.invitations.onAccept('group', (invitation) =>
      groups.acceptInvitation(invitation.inviter_id, invitation.place_id, invitation.invitee_id),
    );

    joinRoomsOnConnect(ctx.gateway, 'group', groups.idsFor, api.log);

    registerRoutes(
      api,
      groupsRoutes,
      {
        list: async (req) => ({ groups: await groups.list(req.userId) }),
        create: (req) => groups.create(req.userId, req.body),
        get: (req) => groups.get(req.userId, req.params.id),
        update: (req) => groups.update(req.userId, req.params.id, req.body),
        avatar: async (req) => {
          // Refused before the body is read when the caller may not change the group.
          await groups.assertAdmin(req.userId, req.params.id);
          const data = await receiveOneImage(req.raw, 'file', ctx.config.avatarMaxBytes);
          return groups.setAvatar(req.userId, req.params.id, data);
        },
        remove: async (req) => {
          await groups.remove(req.userId, req.params.id);
          ctx.events.emit('group.deleted', { groupId: req.params.id });
          return { ok: true as const };
        },
        members: async (req) => ({ members: await groups.members(req.userId, req.params.id) }),
        addMembers: (req) => groups.addMembers(req.userId, req.params.id, req.body.user_ids),
        removeMember: async (req) => {
          await groups.removeMember(req.userId, req.params.id, req.params.userId);
          ctx.events.emit('group.member-left', { groupId: req.params.id, userId: req.params.userId });
          return { ok: true as const };
        },
        setRole: async (req) => ({
          members: await groups.setRole(req.userId, req.params.id, req.params.userId, req.body.role),
        }),
        transferOwner: (req) => groups.transferOwner(req.userId, req.params.id, req.body.user_id),
        leave: async (req) => {
          await groups.leave(req.userId, req.params.id);
          ctx.events.emit('group.member-left', { groupId: req.params.id, userId: req.userId });
          return { ok: true as const };
        },
        join: (req) => groups.join(req.userId, req.params.id),
        renewInvite: async (req) => ({ inviteToken: await groups.renewInvite(req.userId, req.params.id) }),
        revokeInvite: async (req) => {
          await groups.revokeInvite(req.userId, req.params.id);
          return { inviteToken: null };
        },
        invitePreview: (req) => groups.invitePreview(req.userId, req.params.token),
        joinByInvite: (req) => groups.joinByInvite(req.userId, req.params.token),
        search: async (req) => ({ groups: await groups.searchPublic(req.userId, req.query.q) }),
        bySlug: (req) => groups.bySlug(req.userId, req.params.slug),
        messages: (req) =>
          groups.messages(req.userId, req.params.id, req.query.limit ?? 30, req.query.offset ?? 0),
        read: (req) => groups.read(req.userId, req.params.id),
      },
      { tag: 'groups' },
    );
    return { services: groups };
  },
});
