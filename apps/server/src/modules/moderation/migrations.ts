import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Reports, the queue built from them, moderators granted in the app, suspensions, what removals took away
 * (so a restore can bring it back), the append-only audit log and the reporters' notices. Posts and
 * stories gain states for "removed by a moderator" and "hidden while the author is suspended", so every
 * list that reads finished posts or ready stories leaves them out without knowing moderation.
 */
const moderation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('moderation_items')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'integer', (c) => c.notNull())
      .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('status', 'text', (c) =>
        c.notNull().defaultTo('open').check(sql`status in ('open', 'dismissed', 'actioned')`),
      )
      .addColumn('reports_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_reported_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('closed_at', 'timestamptz')
      .execute();
    // A burst of reports on one item is one queue entry: one open entry per item at a time.
    await sql`create unique index moderation_items_open_once on moderation_items (kind, target_id) where status = 'open'`.execute(
      db,
    );
    await sql`create index moderation_items_queue on moderation_items (status, reports_count desc, last_reported_at desc)`.execute(
      db,
    );

    await db.schema
      .createTable('moderation_reports')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('item_id', 'integer', (c) =>
        c.notNull().references('moderation_items.id').onDelete('cascade'),
      )
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'integer', (c) => c.notNull())
      .addColumn('reporter_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('moderation_reports_once', ['kind', 'target_id', 'reporter_id'])
      .execute();
    await db.schema
      .createIndex('moderation_reports_item')
      .on('moderation_reports')
      .columns(['item_id'])
      .execute();

    await db.schema
      .createTable('moderators')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('granted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('user_suspensions')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      // Null: for good.
      .addColumn('until', 'timestamptz')
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('moderation_removals')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'integer', (c) => c.notNull())
      // What the removal took away (text, previous state), for a restore.
      .addColumn('snapshot', 'jsonb', (c) => c.notNull())
      .addColumn('removed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('removed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('moderation_removals_pk', ['kind', 'target_id'])
      .execute();

    await db.schema
      .createTable('moderation_audit')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('moderator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('kind', 'text')
      .addColumn('target_id', 'integer')
      .addColumn('item_id', 'integer')
      .addColumn('subject_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('until', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    // Append-only: the database itself refuses to change or delete an entry (a deleted account's id
    // becomes null through its foreign key, which is the one update allowed).
    await sql`
      create function moderation_audit_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and new.id = old.id and new.action = old.action and new.created_at = old.created_at
          and new.reason = old.reason and (new.moderator_id is null or new.moderator_id = old.moderator_id)
          and (new.subject_id is null or new.subject_id = old.subject_id) then
          return new;
        end if;
        raise exception 'moderation_audit is append-only';
      end $$`.execute(db);
    await sql`create trigger moderation_audit_append_only before update or delete on moderation_audit
      for each row execute function moderation_audit_append_only()`.execute(db);

    await db.schema
      .createTable('moderation_notices')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('read_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('moderation_notices_user')
      .on('moderation_notices')
      .columns(['user_id', 'id'])
      .execute();

    // Story reports made before this queue existed join it (the stories module keeps hiding them from their reporters).
    await sql`insert into moderation_items (kind, target_id, author_id, reports_count, last_reported_at)
      select 'story', r.story_id, s.user_id, count(*)::int, max(r.created_at)
      from story_reports r join stories s on s.id = r.story_id group by r.story_id, s.user_id`.execute(db);
    await sql`insert into moderation_reports (item_id, kind, target_id, reporter_id, reason, created_at)
      select i.id, 'story', r.story_id, r.user_id, r.reason, r.created_at
      from story_reports r join moderation_items i on i.kind = 'story' and i.target_id = r.story_id`.execute(
      db,
    );

    await sql`alter table posts drop constraint posts_status`.execute(db);
    await sql`alter table posts add constraint posts_status
      check (status in ('uploading', 'processing', 'done', 'failed', 'removed', 'suspended'))`.execute(db);
    await sql`alter table stories drop constraint if exists stories_status_check`.execute(db);
    await sql`alter table stories add constraint stories_status_check
      check (status in ('processing', 'ready', 'failed', 'removed', 'suspended'))`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`update posts set status = 'done' where status in ('removed', 'suspended')`.execute(db);
    await sql`update stories set status = 'ready' where status in ('removed', 'suspended')`.execute(db);
    await sql`alter table posts drop constraint posts_status`.execute(db);
    await sql`alter table posts add constraint posts_status
      check (status in ('uploading', 'processing', 'done', 'failed'))`.execute(db);
    await sql`alter table stories drop constraint stories_status_check`.execute(db);
    await sql`alter table stories add constraint stories_status_check
      check (status in ('processing', 'ready', 'failed'))`.execute(db);
    for (const table of [
      'moderation_notices',
      'moderation_audit',
      'moderation_removals',
      'user_suspensions',
      'moderators',
      'moderation_reports',
      'moderation_items',
    ])
      await db.schema.dropTable(table).execute();
    await sql`drop function if exists moderation_audit_append_only()`.execute(db);
  },
};

/**
 * What a reporter reported and so no longer sees, for the kinds whose capability keeps no hidden mark of
 * its own (posts and comments): the feed, profile grids, saved lists and comment threads leave them out
 * for that person only.
 */
const hidden: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('moderation_hidden')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('post', 'comment')`))
      .addColumn('target_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('moderation_hidden_pk', ['user_id', 'kind', 'target_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('moderation_hidden').execute();
  },
};

/** The messages of one member's chat that are unread for them: the same rule every read of a chat applies. */
const unreadCountFunction = sql`
  create or replace function kadr_unread_count(conv integer, member integer, read_up_to integer)
  returns integer language sql stable as $$
    select count(*)::int from messages x
    where x.conversation_id = conv and x.id > read_up_to and x.sender_id <> member and x.deleted_at is null
      and not exists (select 1 from message_hidden h where h.user_id = member and h.message_id = x.id)
      and not exists (select 1 from user_suspensions s where s.user_id = x.sender_id)
  $$`;

/**
 * Counters leave out what a suspension hides. Unread counts (`total_count - seen_count`, groups'
 * migration 0300) count a suspended sender's messages as seen, as they count a hidden one: reading
 * recounts without them, hiding or deleting one of them changes nothing twice, and a suspension or its end
 * recounts the members whose unread messages include the person's. A post's `comments_count` loses the
 * person's comments while the suspension lasts and gets them back after. Both happen in a trigger on
 * `user_suspensions`, so a re-suspension (an update of the row) changes nothing twice.
 */
const counters: Migration = {
  async up(db: Kysely<unknown>) {
    await unreadCountFunction.execute(db);
    await sql`
      create or replace function kadr_member_read() returns trigger language plpgsql as $$
      begin
        -- One statement, one snapshot (the function is stable): the total and the unread agree.
        select c.total_count - kadr_unread_count(new.conversation_id, new.user_id, new.last_read_id)
        into new.seen_count
        from conversations c where c.id = new.conversation_id;
        return new;
      end $$`.execute(db);
    await sql`
      create or replace function kadr_message_hidden() returns trigger language plpgsql as $$
      begin
        update conversation_members cm set seen_count = cm.seen_count + 1
        from messages m
        where m.id = new.message_id and cm.conversation_id = m.conversation_id and cm.user_id = new.user_id
          and m.deleted_at is null and m.sender_id <> new.user_id and m.id > cm.last_read_id
          and not exists (select 1 from user_suspensions s where s.user_id = m.sender_id);
        return null;
      end $$`.execute(db);
    await sql`
      create or replace function kadr_message_deleted() returns trigger language plpgsql as $$
      begin
        update conversations set total_count = total_count - 1 where id = new.conversation_id;
        update conversation_members cm set seen_count = cm.seen_count - 1
        where cm.conversation_id = new.conversation_id
          and (cm.last_read_id >= new.id or cm.user_id = new.sender_id
            or exists (select 1 from message_hidden h where h.user_id = cm.user_id and h.message_id = new.id)
            or exists (select 1 from user_suspensions s where s.user_id = new.sender_id));
        update conversations c set
          last_message_id = l.id, last_message_at = l.created_at
        from (select max(id) as id from messages where conversation_id = new.conversation_id and deleted_at is null) mx
        left join messages l on l.id = mx.id
        where c.id = new.conversation_id and c.last_message_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`
      create function kadr_suspension_counters() returns trigger language plpgsql as $$
      declare
        person integer := coalesce(new.user_id, old.user_id);
        sign integer := case when tg_op = 'INSERT' then -1 else 1 end;
      begin
        -- Members with an unread message of the person (found through the sender's unique index).
        update conversation_members me
        set seen_count = c.total_count - kadr_unread_count(me.conversation_id, me.user_id, me.last_read_id)
        from conversations c
        where c.id = me.conversation_id and me.user_id <> person
          and me.conversation_id in (
            select distinct m.conversation_id from messages m where m.sender_id = person and m.deleted_at is null)
          and exists (select 1 from messages m where m.conversation_id = me.conversation_id
            and m.sender_id = person and m.deleted_at is null and m.id > me.last_read_id);
        update posts p set comments_count = greatest(p.comments_count + sign * x.n, 0)
        from (select post_id, count(*)::int as n from post_comments where user_id = person group by post_id) x
        where p.id = x.post_id;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger user_suspensions_counters after insert or delete on user_suspensions
      for each row execute function kadr_suspension_counters()`.execute(db);
    await sql`create index post_comments_user_idx on post_comments (user_id)`.execute(db);
    // Suspensions that already last: their counters as the trigger would have left them.
    await sql`
      update posts p set comments_count = greatest(p.comments_count - x.n, 0)
      from (select c.post_id, count(*)::int as n from post_comments c
            join user_suspensions s on s.user_id = c.user_id group by c.post_id) x
      where p.id = x.post_id`.execute(db);
    await sql`
      update conversation_members me
      set seen_count = c.total_count - kadr_unread_count(me.conversation_id, me.user_id, me.last_read_id)
      from conversations c
      where c.id = me.conversation_id and exists (
        select 1 from messages m join user_suspensions s on s.user_id = m.sender_id
        where m.conversation_id = me.conversation_id and m.id > me.last_read_id and m.deleted_at is null)`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`
      update posts p set comments_count = p.comments_count + x.n
      from (select c.post_id, count(*)::int as n from post_comments c
            join user_suspensions s on s.user_id = c.user_id group by c.post_id) x
      where p.id = x.post_id`.execute(db);
    await sql`drop index post_comments_user_idx`.execute(db);
    await sql`drop trigger user_suspensions_counters on user_suspensions`.execute(db);
    await sql`drop function kadr_suspension_counters()`.execute(db);
    // The groups migration's functions as they were (without the suspension rule).
    await sql`
      create or replace function kadr_member_read() returns trigger language plpgsql as $$
      begin
        select c.total_count - (
          select count(*) from messages x
          where x.conversation_id = new.conversation_id and x.id > new.last_read_id
            and x.sender_id <> new.user_id and x.deleted_at is null
            and not exists (select 1 from message_hidden h where h.user_id = new.user_id and h.message_id = x.id))
        into new.seen_count
        from conversations c where c.id = new.conversation_id;
        return new;
      end $$`.execute(db);
    await sql`
      create or replace function kadr_message_hidden() returns trigger language plpgsql as $$
      begin
        update conversation_members cm set seen_count = cm.seen_count + 1
        from messages m
        where m.id = new.message_id and cm.conversation_id = m.conversation_id and cm.user_id = new.user_id
          and m.deleted_at is null and m.sender_id <> new.user_id and m.id > cm.last_read_id;
        return null;
      end $$`.execute(db);
    await sql`
      create or replace function kadr_message_deleted() returns trigger language plpgsql as $$
      begin
        update conversations set total_count = total_count - 1 where id = new.conversation_id;
        update conversation_members cm set seen_count = cm.seen_count - 1
        where cm.conversation_id = new.conversation_id
          and (cm.last_read_id >= new.id or cm.user_id = new.sender_id
            or exists (select 1 from message_hidden h where h.user_id = cm.user_id and h.message_id = new.id));
        update conversations c set
          last_message_id = l.id, last_message_at = l.created_at
        from (select max(id) as id from messages where conversation_id = new.conversation_id and deleted_at is null) mx
        left join messages l on l.id = mx.id
        where c.id = new.conversation_id and c.last_message_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`drop function kadr_unread_count(integer, integer, integer)`.execute(db);
  },
};

export const moderationMigrations: Record<string, Migration> = {
  '2200-moderation': moderation,
  '2250-moderation-hidden': hidden,
  '2260-moderation-counters': counters,
};
