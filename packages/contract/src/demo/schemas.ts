import { type Static, Type } from 'typebox';

/** A demo seeding run: a durable job whose progress the «Добавить демо-контент» button shows. */
export const DemoSeeding = Type.Object({
  id: Type.Integer(),
  status: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('done'),
    Type.Literal('failed'),
  ]),
  /** Steps done of `total` (people, posts, chats, stories…): the progress bar is done / total. */
  done: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
  /** Why it failed (Russian), when it did. */
  error: Type.Union([Type.String(), Type.Null()]),
  started_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type DemoSeeding = Static<typeof DemoSeeding>;

export const DemoState = Type.Object({
  /** The caller may add the demo: the instance has no posts yet, the caller is its first account, and demo content is allowed here. */
  offer: Type.Boolean(),
  /** The caller's latest run, if any. */
  seeding: Type.Union([DemoSeeding, Type.Null()]),
});
export type DemoState = Static<typeof DemoState>;
