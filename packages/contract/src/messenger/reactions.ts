/**
 * Reactions on messages (issue #18 item 11): a small fixed set, each toggled per user, shown with counts and
 * who reacted, in every chat kind a member can read (personal, favorites, groups, channels).
 */
import { type Static, Type } from 'typebox';
import { Id } from '../common.ts';
import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import type { ReactionKind } from './reaction-kinds.ts';
import type { ChatRef } from './schemas.ts';

export * from './reaction-kinds.ts';

/** Names, not glyphs: the web draws each with an icon. */
export const ReactionKindSchema = Type.Union([
  Type.Literal('like'),
  Type.Literal('heart'),
  Type.Literal('laugh'),
  Type.Literal('fire'),
  Type.Literal('sad'),
  Type.Literal('dislike'),
]);
// The schema and the browser's constant name the same set.
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameSet: SameSet<Static<typeof ReactionKindSchema>, ReactionKind> = true;
void sameSet;

/** Who reacted (at most `REACTION_USERS_SHOWN` per reaction, earliest first). */
export const ReactionUser = Type.Object({ id: Type.Integer(), name: Type.String() });
export type ReactionUser = Static<typeof ReactionUser>;

/** One reaction of a message: how many chose it and who (the viewer's own is among `users`). */
export const MessageReaction = Type.Object({
  reaction: ReactionKindSchema,
  count: Type.Integer(),
  users: Type.Array(ReactionUser),
});
export type MessageReaction = Static<typeof MessageReaction>;

export const ReactionParams = Type.Object({ id: Id, reaction: ReactionKindSchema });
export const ReactionsResponse = Type.Object({
  message_id: Type.Integer(),
  reactions: Type.Array(MessageReaction),
});
export type ReactionsResponse = Static<typeof ReactionsResponse>;

/** `message-reactions`: to every member of the chat after a reaction is added or removed. */
export interface MessageReactionsEvent {
  chat: ChatRef;
  message_id: number;
  reactions: MessageReaction[];
}

const reactionResponses = {
  200: ReactionsResponse,
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  429: ErrorBody,
};

/** Idempotent both ways: putting a reaction twice keeps one, removing an absent one changes nothing. */
export const messengerReactionRoutes = {
  react: defineRoute({
    method: 'PUT',
    path: '/messages/:id/reactions/:reaction',
    access: 'user',
    who: 'a member of the message’s chat',
    params: ReactionParams,
    response: reactionResponses,
  }),
  unreact: defineRoute({
    method: 'DELETE',
    path: '/messages/:id/reactions/:reaction',
    access: 'user',
    who: 'a member of the message’s chat',
    params: ReactionParams,
    response: reactionResponses,
  }),
};
