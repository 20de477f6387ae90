/** The fixed set of message reactions, in the order the picker shows them (schema-free: the browser imports it). */
export const REACTIONS = ['like', 'heart', 'laugh', 'fire', 'sad', 'dislike'] as const;
export type ReactionKind = (typeof REACTIONS)[number];
/** At most this many reactors are named per reaction (earliest first); `count` has them all. */
export const REACTION_USERS_SHOWN = 50;
