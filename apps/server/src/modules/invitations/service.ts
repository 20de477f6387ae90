import { ErrorCode, ErrorText, type Invitation, type InvitationKind } from '@kadr/contract';
import { AppError } from '../../lib/errors.ts';
import type { Events } from '../../lib/events.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { ReachPolicy } from '../settings/reach.ts';
import type { InvitationListRow, InvitationRow, InvitationsRepository } from './repository.ts';

const toInvitation = (r: InvitationListRow): Invitation => ({
  id: r.id,
  kind: r.kind,
  place_id: r.place_id,
  place_name: r.place_name ?? '',
  place_avatar_url: r.place_avatar_url,
  inviter: {
    id: r.inviter_id,
    username: r.inviter_username,
    name: r.inviter_name,
    avatar_url: r.inviter_avatar_url,
    avatar_thumbnail_url: r.inviter_avatar_thumbnail_url,
  },
  created_at: new Date(r.created_at).toISOString(),
});

/** What accepting an invitation of a kind does (registered by the groups and channels modules). */
export type AcceptInvitation = (invitation: InvitationRow) => Promise<void>;

const notFound = () => new AppError(404, ErrorCode.invitationNotFound, ErrorText.invitationNotFound);

/**
 * Invitations in place of adding: made by the groups and channels services when the reach policy answers
 * `invite`, listed to the invitee («Приглашения»), accepted (the kind's handler does the adding) or
 * declined. A block between the two ends their invitations and refuses new ones.
 */
export function invitationsService(deps: {
  repo: InvitationsRepository;
  gateway: Gateway;
  events: Events;
  reach: ReachPolicy;
}) {
  const { repo, gateway, events, reach } = deps;
  const handlers = new Map<InvitationKind, AcceptInvitation>();

  async function changed(userId: number) {
    gateway.emitToUser(userId, 'invitations-changed', { count: await repo.count(userId) });
  }

  return {
    /** Registers what accepting `kind` does; the module owning the place calls it once at start. */
    onAccept(kind: InvitationKind, handler: AcceptInvitation) {
      handlers.set(kind, handler);
    },

    async invite(
      kind: InvitationKind,
      placeId: number,
      inviterId: number,
      inviteeId: number,
      rights: unknown = null,
    ): Promise<void> {
      await reach.assertCanAdd(inviterId, inviteeId);
      await repo.upsert({ kind, place_id: placeId, inviter_id: inviterId, invitee_id: inviteeId, rights });
      await changed(inviteeId);
      events.emit('invitation.created', { kind, placeId, inviterId, inviteeId });
    },

    list: async (userId: number): Promise<Invitation[]> => (await repo.forInvitee(userId)).map(toInvitation),

    async accept(userId: number, id: number) {
      const row = await repo.one(id, userId);
      if (!row) throw notFound();
      const handler = handlers.get(row.kind);
      if (!handler) throw notFound();
      // A block made since the invitation was sent voids it.
      if (await reach.walled(row.inviter_id, userId)) {
        await repo.remove(id);
        await changed(userId);
        await reach.assertCanAdd(row.inviter_id, userId);
      }
      await handler(row);
      await repo.remove(id);
      await changed(userId);
      return { ok: true as const, kind: row.kind, place_id: row.place_id };
    },

    async decline(userId: number, id: number) {
      const row = await repo.one(id, userId);
      if (!row) throw notFound();
      await repo.remove(id);
      await changed(userId);
      return { ok: true as const, kind: row.kind, place_id: row.place_id };
    },

    /** After a block: the invitations between the two are gone. */
    async endBetween(a: number, b: number) {
      for (const invitee of await repo.removeBetween(a, b)) await changed(invitee);
    },
  };
}

export type InvitationsService = ReturnType<typeof invitationsService>;
