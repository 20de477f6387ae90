import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The insert trigger's function: a statement's new messages added to their chats' counters and last message,
 * and to their senders' own seen counts. Rows are locked in id order first, so batches touching the same chats
 * cannot deadlock on each other; `lock` is the row-lock strength (0301 lowered it, see there). With `alone`
 * (0302) the locks are taken only when the database may run other sessions: PGlite starts with
 * `kadr.one_session=on` (db/database.ts), where no other transaction can hold or wait for these rows, and the two
 * locking statements were half the trigger's time (0.82 against 0.42 ms a three-row batch on Liftoff).
 */
const messagesInsertedFunction = (lock: 'update' | 'no key update', alone = false) => {
  const locking = (statement: ReturnType<typeof sql>) =>
    alone ? sql`if not alone then ${statement}; end if;` : sql`${statement};`;
  return sql`
  create or replace function kadr_messages_inserted() returns trigger language plpgsql as $$
  ${alone ? sql`declare alone constant boolean := coalesce(current_setting('kadr.one_session', true), '') = 'on';` : sql``}
  begin
    ${locking(sql`perform 1 from conversations where id in (select distinct conversation_id from ins)
      order by id for ${sql.raw(lock)}`)}
    update conversations c set
      total_count = c.total_count + x.n,
      last_message_id = greatest(coalesce(c.last_message_id, 0), x.max_id),
      last_message_at = greatest(c.last_message_at, x.at)
    from (select conversation_id, count(*)::int as n, max(id) as max_id, max(created_at) as at
          from ins where deleted_at is null group by conversation_id) x
    where c.id = x.conversation_id;
    ${locking(sql`perform 1 from conversation_members
      where (conversation_id, user_id) in (select conversation_id, sender_id from ins)
      order by conversation_id, user_id for ${sql.raw(lock)}`)}
    update conversation_members cm set seen_count = cm.seen_count + x.n
    from (select conversation_id, sender_id, count(*)::int as n from ins where deleted_at is null
          group by conversation_id, sender_id) x
    where cm.conversation_id = x.conversation_id and cm.user_id = x.sender_id;
    return null;
  end $$`;
};

/**
 * Chats of every kind: what the messenger's chat list and send path need about groups and channels
 * (title, avatar, member count, roles and channel rights on the member row), replies, channel view
 * counts, and stored unread counts.
 *
 * Unread counts are kept, not counted on read: `conversations.total_count` counts messages not deleted
 * for everyone, and `conversation_members.seen_count` counts those of them that are not unread for the
 * member (own, read, or hidden). A member's unread count is `total_count - seen_count`. Triggers keep
 * both right on every path that writes messages (batched sends, attachments, forwards), so no caller
 * can forget: inserting a message counts it and counts it as seen by its sender; deleting one for
 * everyone uncounts it (and un-sees it where it was seen); hiding an unread one sees it; moving the
 * read watermark recounts only the messages after the new watermark; a new member has seen everything
 * before joining. The same triggers keep `last_message_id`/`last_message_at`, which order the chat
 * list and page it without looking at messages.
 */
const chatKinds: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      alter table conversations
        add column title text,
        add column avatar_url text,
        add column member_count integer not null default 0,
        add column total_count integer not null default 0,
        add column last_message_id integer,
        add column last_message_at timestamptz`.execute(db);
    await sql`
      alter table conversation_members
        add column role text not null default 'member',
        add column can_post boolean not null default false,
        add column can_edit_others boolean not null default false,
        add column can_delete_others boolean not null default false,
        add column seen_count integer not null default 0,
        add constraint conversation_members_role check (role in ('owner', 'admin', 'member', 'subscriber'))`.execute(
      db,
    );
    await sql`
      alter table messages
        add column reply_to_id integer references messages(id) on delete set null,
        add column views_count integer not null default 0`.execute(db);
    await sql`create index conversation_members_conv_read_idx on conversation_members (conversation_id, last_read_id)`.execute(
      db,
    );

    // Existing data: counts and last messages as the triggers would have kept them.
    await sql`
      update conversations c set
        total_count = (select count(*) from messages m where m.conversation_id = c.id and m.deleted_at is null),
        last_message_id = (select max(id) from messages m where m.conversation_id = c.id and m.deleted_at is null),
        member_count = (select count(*) from conversation_members cm where cm.conversation_id = c.id)`.execute(
      db,
    );
    await sql`
      update conversations c set last_message_at = (select created_at from messages m where m.id = c.last_message_id)
      where c.last_message_id is not null`.execute(db);
    await sql`
      update conversation_members me set seen_count = c.total_count - (
        select count(*) from messages x
        where x.conversation_id = me.conversation_id and x.id > me.last_read_id and x.sender_id <> me.user_id
          and x.deleted_at is null and x.id > me.cleared_up_to
          and not exists (select 1 from message_hidden h where h.user_id = me.user_id and h.message_id = x.id))
      from conversations c where c.id = me.conversation_id`.execute(db);

    await messagesInsertedFunction('update').execute(db);
    await sql`
      create trigger messages_inserted after insert on messages referencing new table as ins
      for each statement execute function kadr_messages_inserted()`.execute(db);

    await sql`
      create function kadr_message_deleted() returns trigger language plpgsql as $$
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
    await sql`
      create trigger message_deleted after update of deleted_at on messages
      for each row when (old.deleted_at is null and new.deleted_at is not null)
      execute function kadr_message_deleted()`.execute(db);

    await sql`
      create function kadr_message_hidden() returns trigger language plpgsql as $$
      begin
        update conversation_members cm set seen_count = cm.seen_count + 1
        from messages m
        where m.id = new.message_id and cm.conversation_id = m.conversation_id and cm.user_id = new.user_id
          and m.deleted_at is null and m.sender_id <> new.user_id and m.id > cm.last_read_id;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger message_hidden_inserted after insert on message_hidden
      for each row execute function kadr_message_hidden()`.execute(db);

    await sql`
      create function kadr_member_read() returns trigger language plpgsql as $$
      begin
        -- One statement, one snapshot: the total and the messages after the watermark agree.
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
      create trigger member_read before update of last_read_id on conversation_members
      for each row when (new.last_read_id > old.last_read_id) execute function kadr_member_read()`.execute(
      db,
    );

    await sql`
      create function kadr_member_joined() returns trigger language plpgsql as $$
      begin
        -- Joining sees everything written before: nothing of it is unread. (A chat created in the same
        -- statement is not visible here yet: it has no messages, so zero is right.)
        new.seen_count := coalesce((select c.total_count from conversations c where c.id = new.conversation_id), 0);
        new.last_read_id := greatest(new.last_read_id,
          coalesce((select c.last_message_id from conversations c where c.id = new.conversation_id), 0));
        new.last_delivered_id := greatest(new.last_delivered_id, new.last_read_id);
        return new;
      end $$`.execute(db);
    await sql`
      create trigger member_joined before insert on conversation_members
      for each row execute function kadr_member_joined()`.execute(db);

    await sql`
      create function kadr_member_count() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update conversations set member_count = member_count + 1 where id = new.conversation_id;
        else
          update conversations set member_count = member_count - 1 where id = old.conversation_id;
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger member_count after insert or delete on conversation_members
      for each row execute function kadr_member_count()`.execute(db);

    await sql`
      create table groups (
        id integer primary key references conversations(id) on delete cascade,
        slug text unique,
        description text not null default '',
        is_public boolean not null default false,
        invite_token text unique,
        owner_id integer not null references users(id) on delete cascade,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`create index groups_public_idx on groups (is_public)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table groups`.execute(db);
    for (const t of [
      'member_count on conversation_members',
      'member_joined on conversation_members',
      'member_read on conversation_members',
      'message_hidden_inserted on message_hidden',
      'message_deleted on messages',
      'messages_inserted on messages',
    ])
      await sql.raw(`drop trigger ${t}`).execute(db);
    for (const f of [
      'kadr_member_count',
      'kadr_member_joined',
      'kadr_member_read',
      'kadr_message_hidden',
      'kadr_message_deleted',
      'kadr_messages_inserted',
    ])
      await sql.raw(`drop function ${f}()`).execute(db);
    await sql`drop index conversation_members_conv_read_idx`.execute(db);
    await sql`alter table messages drop column reply_to_id, drop column views_count`.execute(db);
    await sql`
      alter table conversation_members drop constraint conversation_members_role,
        drop column role, drop column can_post, drop column can_edit_others, drop column can_delete_others,
        drop column seen_count`.execute(db);
    await sql`
      alter table conversations drop column title, drop column avatar_url, drop column member_count,
        drop column total_count, drop column last_message_id, drop column last_message_at`.execute(db);
  },
};

/**
 * The insert trigger's row locks, one level lighter: `for no key update` instead of `for update`. Each insert
 * into `messages` first takes `for key share` on its chat's row (the foreign key's check); two batches into the
 * same chat then both held that and both asked `for update`, which conflicts with it — PostgreSQL found a
 * deadlock and one send failed (the group fan-out bench, 50 msg/s into one group of 1,000). `for no key update`
 * (what the trigger's own updates of counters take anyway) does not conflict with `for key share`, so the
 * second batch just waits for the first.
 */
const messagesInsertedLocks: Migration = {
  async up(db: Kysely<unknown>) {
    await messagesInsertedFunction('no key update').execute(db);
  },
  async down(db: Kysely<unknown>) {
    await messagesInsertedFunction('update').execute(db);
  },
};

/** The insert trigger's row locks only where another session may take them (see `messagesInsertedFunction`). */
const messagesInsertedAlone: Migration = {
  async up(db: Kysely<unknown>) {
    await messagesInsertedFunction('no key update', true).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await messagesInsertedFunction('no key update').execute(db);
  },
};

/**
 * Who was removed from a group (by its owner or an admin): removal no longer renews the invite link for
 * everyone; instead the removed person cannot come back through the link (or, in a public group, by
 * joining) until an admin adds them again — as Telegram's removal works.
 */
const removedMembers: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('group_removed_members')
      .addColumn('conversation_id', 'integer', (c) =>
        c.notNull().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('removed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('group_removed_members_pk', ['conversation_id', 'user_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('group_removed_members').execute();
  },
};

export const groupsMigrations = {
  '0300-groups-chat-kinds': chatKinds,
  '0301-messages-inserted-locks': messagesInsertedLocks,
  '0302-messages-inserted-alone': messagesInsertedAlone,
  '2601-groups-removed-members': removedMembers,
};
