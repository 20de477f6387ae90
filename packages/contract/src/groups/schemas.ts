/**
 * Groups (spec §2.6, §3 group fields and members, §4.11 group preview and join, §7.5). A group is a
 * chat: its id is the id the chat list, `ChatRef`, `ChatTarget.group_id` and `POST /messages`
 * (`group_id`) use. Roles: `owner` (one; hands ownership over, deletes), `admin` (adds and removes
 * members, edits the group, renews or revokes the invite link, deletes anyone's messages), `member`.
 */
import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import { Limits } from '../limits.ts';

export const GroupRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);
export type GroupRole = Static<typeof GroupRole>;

/** 5–32 letters, digits, `_` or `-` (the same shape as a channel mention link). */
export const ChatSlug = Type.String({ minLength: 5, maxLength: 32, pattern: '^[A-Za-z0-9_-]{5,32}$' });

export const GroupName = Type.String({ minLength: 1, maxLength: 64 });
export const GroupDescription = Type.String({ maxLength: 255 });

export const Group = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** Public groups only. */
  slug: Nullable(Type.String()),
  description: Type.String(),
  avatar_url: Nullable(Type.String()),
  is_public: Type.Boolean(),
  /** The current invite token; members see it, null for others or when revoked. */
  inviteToken: Nullable(Type.String()),
  isMember: Type.Boolean(),
  /** The caller's role; null when not a member. */
  role: Nullable(GroupRole),
  memberCount: Type.Integer(),
  owner_id: Type.Integer(),
  created_at: IsoDateTime,
  /** On create: those asked by invitation instead of added (their «who can add me» setting). */
  invited: Type.Optional(Type.Array(Type.Integer())),
});
export type Group = Static<typeof Group>;

export const GroupsResponse = Type.Object({ groups: Type.Array(Group) });
export type GroupsResponse = Static<typeof GroupsResponse>;

export const GroupIdParams = Type.Object({ id: Id });
export const GroupMemberParams = Type.Object({ id: Id, userId: Id });
export const InviteTokenParams = Type.Object({
  token: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});
export const SlugParams = Type.Object({ slug: ChatSlug });
/** Chat search for public groups and channels: part of the name or of the address (`@` optional). */
export const RoomSearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: Limits.userSearch.queryMax }),
});
export type RoomSearchQuery = Static<typeof RoomSearchQuery>;

export const CreateGroupBody = Type.Object(
  {
    name: GroupName,
    description: Type.Optional(GroupDescription),
    is_public: Type.Optional(Type.Boolean({ default: false })),
    /** Needed for a public group: its address. */
    slug: Type.Optional(ChatSlug),
    member_ids: Type.Optional(Type.Array(Id, { maxItems: 200 })),
  },
  { additionalProperties: false },
);
export type CreateGroupBody = Static<typeof CreateGroupBody>;

export const UpdateGroupBody = Type.Object(
  {
    name: Type.Optional(GroupName),
    description: Type.Optional(GroupDescription),
    is_public: Type.Optional(Type.Boolean()),
    slug: Type.Optional(Nullable(ChatSlug)),
  },
  { additionalProperties: false },
);
export type UpdateGroupBody = Static<typeof UpdateGroupBody>;

export const GroupMember = Type.Object({
  user_id: Type.Integer(),
  /** The member's @username. */
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
  role: GroupRole,
});
export type GroupMember = Static<typeof GroupMember>;
export const GroupMembersResponse = Type.Object({
  members: Type.Array(GroupMember),
  /** On adding: those asked by invitation instead (their «who can add me» setting). */
  invited: Type.Optional(Type.Array(Type.Integer())),
});
export type GroupMembersResponse = Static<typeof GroupMembersResponse>;

export const AddMembersBody = Type.Object(
  { user_ids: Type.Array(Id, { minItems: 1, maxItems: 200 }) },
  { additionalProperties: false },
);
export const SetRoleBody = Type.Object(
  { role: Type.Union([Type.Literal('admin'), Type.Literal('member')]) },
  { additionalProperties: false },
);
export const TransferOwnerBody = Type.Object({ user_id: Id }, { additionalProperties: false });

export const InviteLinkResponse = Type.Object({ inviteToken: Nullable(Type.String()) });
export type InviteLinkResponse = Static<typeof InviteLinkResponse>;

export const GroupMessagesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 30 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
export const OkResponse = Type.Object({ ok: Type.Literal(true) });
export const ReadResponse = Type.Object({ up_to_message_id: Type.Integer(), unread_count: Type.Integer() });

/** `group-updated`: to the group's room (and to a removed member's own devices). */
export interface GroupUpdatedEvent {
  group_id: number;
  change: 'updated' | 'member-added' | 'member-removed' | 'role-changed' | 'deleted';
  user_id?: number;
}
