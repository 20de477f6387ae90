import { type RawBuilder, sql } from 'kysely';

/**
 * Whether the viewer may find what this user made or who they are: false when either blocked the other
 * (the reach policy's wall, settings/reach.ts, asked here in SQL so one query filters a whole result page),
 * and while the user is suspended by a moderator. `userColumn` is the SQL column holding the other user's id.
 */
export function reachableBy(viewerId: number, userColumn: string): RawBuilder<boolean> {
  const other = sql.ref(userColumn);
  return sql<boolean>`not exists (
    select 1 from user_blocks b
    where (b.blocker_id = ${viewerId} and b.blocked_id = ${other})
       or (b.blocker_id = ${other} and b.blocked_id = ${viewerId}))
    and not exists (select 1 from user_suspensions s where s.user_id = ${other})`;
}

/**
 * Whether the viewer may see what this user posted: their own, a public account's, or a private account's
 * («Закрытый аккаунт», settings/reach.ts `canSeeWork`) the viewer follows. The person stays findable.
 */
export function workOpenTo(viewerId: number, userColumn: string): RawBuilder<boolean> {
  const other = sql.ref(userColumn);
  return sql<boolean>`(${other} = ${viewerId}
    or not exists (select 1 from user_settings us where us.user_id = ${other}
      and (us.data->'privacy'->>'private_account') = 'true')
    or exists (select 1 from follows f where f.follower_id = ${viewerId} and f.followee_id = ${other}))`;
}
