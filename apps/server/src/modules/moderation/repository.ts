import type { ModerationTargetKind, ReportReason } from '@kadr/contract';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './tables.ts';

export interface ItemRow {
  id: number;
  kind: ModerationTargetKind;
  target_id: number;
  author_id: number | null;
  status: 'open' | 'dismissed' | 'actioned';
  reports_count: number;
  last_reported_at: Date;
}

export interface AuditInput {
  moderatorId: number;
  action: string;
  kind?: ModerationTargetKind | null;
  targetId?: number | null;
  itemId?: number | null;
  subjectId?: number | null;
  reason?: string;
  until?: Date | null;
}

const itemColumns = [
  'id',
  'kind',
  'target_id',
  'author_id',
  'status',
  'reports_count',
  'last_reported_at',
] as const;

/** SQL of the moderation module only; rules live in service.ts. */
export function moderationRepository(db: Kysely<Database>) {
  return {
    transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },

    /** The open queue entry of this item (made when missing), joined by one more report; null when already reported. */
    async addReport(
      trx: Transaction<Database>,
      r: {
        kind: ModerationTargetKind;
        targetId: number;
        authorId: number | null;
        reporterId: number;
        reason: ReportReason;
        comment: string;
      },
    ): Promise<number | null> {
      const { rows } = await sql<{ id: number }>`
        insert into moderation_items (kind, target_id, author_id) values (${r.kind}, ${r.targetId}, ${r.authorId})
        on conflict (kind, target_id) where status = 'open' do update set last_reported_at = now()
        returning id`.execute(trx);
      const itemId = rows[0]!.id;
      const report = await trx
        .insertInto('moderation_reports')
        .values({
          item_id: itemId,
          kind: r.kind,
          target_id: r.targetId,
          reporter_id: r.reporterId,
          reason: r.reason,
          comment: r.comment,
        })
        .onConflict((oc) => oc.constraint('moderation_reports_once').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!report) return null;
      await trx
        .updateTable('moderation_items')
        .set((eb) => ({ reports_count: eb('reports_count', '+', 1), last_reported_at: new Date() }))
        .where('id', '=', itemId)
        .execute();
      return itemId;
    },

    item(id: number): Promise<ItemRow | undefined> {
      return db.selectFrom('moderation_items').select(itemColumns).where('id', '=', id).executeTakeFirst();
    },

    /** Open: most reported, then most recently reported first. Closed: most recently closed first. */
    queue(status: 'open' | 'closed', offset: number, limit: number): Promise<ItemRow[]> {
      const q = db.selectFrom('moderation_items').select(itemColumns);
      return (
        status === 'open'
          ? q
              .where('status', '=', 'open')
              .orderBy('reports_count', 'desc')
              .orderBy('last_reported_at', 'desc')
          : q.where('status', '!=', 'open').orderBy('closed_at', 'desc')
      )
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute();
    },

    async close(id: number, status: 'dismissed' | 'actioned'): Promise<void> {
      await db
        .updateTable('moderation_items')
        .set({ status, closed_at: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .execute();
    },

    async reasons(itemIds: number[]) {
      if (itemIds.length === 0) return [];
      return db
        .selectFrom('moderation_reports')
        .select(['item_id', 'reason', 'comment', 'created_at'])
        .where('item_id', 'in', itemIds)
        .orderBy('created_at', 'desc')
        .execute();
    },

    reporters(kind: ModerationTargetKind, targetId: number): Promise<number[]> {
      return db
        .selectFrom('moderation_reports')
        .select('reporter_id')
        .where('kind', '=', kind)
        .where('target_id', '=', targetId)
        .execute()
        .then((rows) => rows.map((r) => r.reporter_id));
    },

    users(ids: number[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('users')
        .select(['id', 'username', 'name', 'avatar_url'])
        .where('id', 'in', ids)
        .execute();
    },

    userByName(username: string) {
      return db
        .selectFrom('users')
        .select(['id', 'username', 'name', 'avatar_url'])
        .where(sql<boolean>`lower(username) = ${username.toLowerCase()}`)
        .executeTakeFirst();
    },

    async roleOf(userId: number): Promise<{ username: string; granted: boolean } | undefined> {
      const row = await db
        .selectFrom('users as u')
        .select(['u.username'])
        .select((eb) =>
          eb
            .exists(eb.selectFrom('moderators as m').select('m.user_id').whereRef('m.user_id', '=', 'u.id'))
            .as('granted'),
        )
        .where('u.id', '=', userId)
        .executeTakeFirst();
      return row && { username: row.username, granted: Boolean(row.granted) };
    },

    async grant(userId: number, by: number): Promise<void> {
      await db
        .insertInto('moderators')
        .values({ user_id: userId, granted_by: by })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    granted() {
      return db
        .selectFrom('moderators as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['u.id', 'u.username', 'u.name', 'u.avatar_url'])
        .orderBy('m.created_at')
        .execute();
    },

    usersByNames(names: string[]) {
      if (names.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('users')
        .select(['id', 'username', 'name', 'avatar_url'])
        .where(sql<boolean>`lower(username) = any(${`{${names.join(',')}}`}::text[])`)
        .execute();
    },

    removals(kind: ModerationTargetKind, targetIds: number[]) {
      if (targetIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('moderation_removals')
        .select(['target_id', 'snapshot'])
        .where('kind', '=', kind)
        .where('target_id', 'in', targetIds)
        .execute();
    },

    async keepRemoval(
      kind: ModerationTargetKind,
      targetId: number,
      snapshot: Record<string, unknown>,
      by: number,
    ) {
      await db
        .insertInto('moderation_removals')
        .values({ kind, target_id: targetId, snapshot: JSON.stringify(snapshot), removed_by: by })
        .onConflict((oc) =>
          oc
            .columns(['kind', 'target_id'])
            .doUpdateSet({ snapshot: JSON.stringify(snapshot), removed_by: by }),
        )
        .execute();
    },

    async dropRemoval(kind: ModerationTargetKind, targetId: number) {
      return db
        .deleteFrom('moderation_removals')
        .where('kind', '=', kind)
        .where('target_id', '=', targetId)
        .returning('snapshot')
        .executeTakeFirst();
    },

    suspensions(userIds: number[]) {
      if (userIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('user_suspensions')
        .select(['user_id', 'until', 'reason'])
        .where('user_id', 'in', userIds)
        .execute();
    },

    async audit(entry: AuditInput): Promise<void> {
      await db
        .insertInto('moderation_audit')
        .values({
          moderator_id: entry.moderatorId,
          action: entry.action,
          kind: entry.kind ?? null,
          target_id: entry.targetId ?? null,
          item_id: entry.itemId ?? null,
          subject_id: entry.subjectId ?? null,
          reason: entry.reason ?? '',
          until: entry.until ?? null,
        })
        .execute();
    },

    auditPage(offset: number, limit: number) {
      return db
        .selectFrom('moderation_audit')
        .selectAll()
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute();
    },

    addNotice(userId: number, kind: ModerationTargetKind, text: string) {
      return db
        .insertInto('moderation_notices')
        .values({ user_id: userId, kind, text })
        .returning(['id', 'kind', 'text', 'created_at', 'read_at'])
        .executeTakeFirstOrThrow();
    },

    notices(userId: number) {
      return db
        .selectFrom('moderation_notices')
        .select(['id', 'kind', 'text', 'created_at', 'read_at'])
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(50)
        .execute();
    },

    async readNotices(userId: number): Promise<void> {
      await db
        .updateTable('moderation_notices')
        .set({ read_at: new Date() })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .execute();
    },
  };
}

export type ModerationRepository = ReturnType<typeof moderationRepository>;
