import { invitationsRoutes } from '@kadr/contract/invitations/routes';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import { invitationsMigrations } from './migrations.ts';
import { invitationsRepository } from './repository.ts';
import { type InvitationsService, invitationsService } from './service.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** Invitations into groups and channels for those who do not let the inviter add them. */
    invitations: InvitationsService;
  }
}

declare module '../../lib/events.ts' {
  interface DomainEvents {
    /** `inviterId` invited `inviteeId` into group or channel `placeId` (notifications). */
    'invitation.created': {
      kind: 'group' | 'channel_admin';
      placeId: number;
      inviterId: number;
      inviteeId: number;
    };
  }
}

/** «Приглашения»: listed after settings (it asks the reach policy) and before groups and channels. */
export const invitationsModule = defineModule({
  name: 'invitations',
  migrations: invitationsMigrations,
  async register(api, ctx) {
    const invitations = invitationsService({
      repo: invitationsRepository(ctx.db.kysely),
      gateway: ctx.gateway,
      events: ctx.events,
      reach: ctx.settings.reach,
    });
    ctx.invitations = invitations;
    registerRoutes(
      api,
      invitationsRoutes,
      {
        list: async (req) => ({ invitations: await invitations.list(req.userId) }),
        accept: (req) => invitations.accept(req.userId, req.params.id),
        decline: (req) => invitations.decline(req.userId, req.params.id),
      },
      { tag: 'invitations' },
    );
    return { services: invitations };
  },
});
