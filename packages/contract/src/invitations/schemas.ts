import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import { UserSummary } from '../users.ts';

/**
 * An invitation in place of adding someone who does not let the inviter add them («Кто может добавлять
 * меня в группы и каналы»): into a group, or as a channel's administrator (with the rights the owner
 * chose). Accepting does what adding would have done.
 */
export const InvitationKind = Type.Union([Type.Literal('group'), Type.Literal('channel_admin')]);
export type InvitationKind = Static<typeof InvitationKind>;

export const Invitation = Type.Object({
  id: Type.Integer(),
  kind: InvitationKind,
  /** The group's or channel's id. */
  place_id: Type.Integer(),
  place_name: Type.String(),
  place_avatar_url: Nullable(Type.String()),
  inviter: UserSummary,
  created_at: IsoDateTime,
});
export type Invitation = Static<typeof Invitation>;

export const InvitationsResponse = Type.Object({ invitations: Type.Array(Invitation) });
export type InvitationsResponse = Static<typeof InvitationsResponse>;

export const InvitationIdParams = Type.Object({ id: Id });

export const InvitationAnswer = Type.Object({
  ok: Type.Literal(true),
  kind: InvitationKind,
  place_id: Type.Integer(),
});
export type InvitationAnswer = Static<typeof InvitationAnswer>;

/** To the invitee's devices when an invitation arrives or is answered elsewhere. */
export interface InvitationsChangedEvent {
  /** Pending invitations now. */
  count: number;
}
