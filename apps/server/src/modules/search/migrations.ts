import { MEDIA_TAGS } from '@kadr/contract';
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

const tagNames = Object.entries(MEDIA_TAGS)
  .map(([key, name]) => `when '${key}' then '${key} ${name.toLowerCase().replace(/ё/g, 'е')}'`)
  .join(' ');

/**
 * One search over posts, people, rooms and messages, on the database already run (PostgreSQL full-text and
 * trigram indexes; PGlite loads pg_trgm, see db/database.ts):
 * - `search_fold(text)`: lower case with ё folded to е, the form every name index and query uses;
 * - posts carry `search_text` (caption, hashtags, AI tags in both languages, AI description) and
 *   `search_vector` (the same, weighted: caption A, tags B, description C), kept by a trigger.
 *   The text a post is found by is written in ONE function, `search_post_text`: a new source (alt text of
 *   the media) is one more argument there and in the trigger;
 * - `post_hashtags` / `hashtags`: the caption's #tags per post and how many posts use each;
 * - `search_words`: the vocabulary of public post text, for typo correction by trigram similarity;
 * - `search_recent`: each user's recent searches.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create or replace function search_fold(t text) returns text
    language sql immutable parallel safe as $$ select translate(lower(t), 'ё', 'е') $$`.execute(db);
  await sql
    .raw(`create or replace function search_tag_words(tags text[]) returns text
    language sql immutable parallel safe as $$
      select coalesce(string_agg(case t ${tagNames} else t end, ' '), '') from unnest(tags) t
    $$`)
    .execute(db);
  await sql`create or replace function search_post_text(caption text, tags text[], description text)
    returns text language sql immutable parallel safe as $$
      select search_fold(caption || ' ' || search_tag_words(tags) || ' ' || description)
    $$`.execute(db);

  await sql`alter table posts add column search_text text not null default ''`.execute(db);
  await sql`alter table posts add column search_vector tsvector not null default ''::tsvector`.execute(db);
  await sql`create or replace function posts_search_fill() returns trigger language plpgsql as $$
    begin
      new.search_text := search_post_text(new.caption, new.ai_tags, new.ai_description);
      new.search_vector :=
        setweight(to_tsvector('russian', search_fold(new.caption)), 'A') ||
        setweight(to_tsvector('russian', search_tag_words(new.ai_tags)), 'B') ||
        setweight(to_tsvector('russian', search_fold(new.ai_description)), 'C');
      return new;
    end $$`.execute(db);
  await sql`create trigger posts_search_fill before insert or update of caption, ai_tags, ai_description
    on posts for each row execute function posts_search_fill()`.execute(db);
  await sql`create index posts_search_vector_idx on posts using gin (search_vector)`.execute(db);
  await sql`create index posts_search_text_trgm_idx on posts using gin (search_text gin_trgm_ops)`.execute(
    db,
  );

  await sql`create index posts_ai_tags_idx on posts using gin (ai_tags)`.execute(db);

  await sql`create table post_hashtags (
    post_id integer not null references posts(id) on delete cascade,
    tag text not null,
    primary key (tag, post_id))`.execute(db);
  await sql`create index post_hashtags_post_idx on post_hashtags (post_id)`.execute(db);
  await sql`create table hashtags (tag text primary key, posts_count integer not null default 0)`.execute(db);
  await sql`create index hashtags_tag_trgm_idx on hashtags using gin (tag gin_trgm_ops)`.execute(db);
  await sql`create table search_words (word text primary key)`.execute(db);
  await sql`create index search_words_trgm_idx on search_words using gin (word gin_trgm_ops)`.execute(db);

  // Hashtags and vocabulary follow the caption; counts follow post_hashtags (a deleted post cascades).
  await sql`create or replace function posts_search_terms() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        delete from post_hashtags where post_id = new.id;
      end if;
      insert into post_hashtags (post_id, tag)
        select distinct new.id, search_fold(m[1]) from regexp_matches(new.caption, '#([[:alnum:]_]+)', 'g') m
        on conflict do nothing;
      insert into search_words (word)
        select distinct w from regexp_split_to_table(new.search_text, '[^[:alnum:]]+') w
        where length(w) between 3 and 40
        on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger posts_search_terms after insert or update of caption, ai_tags, ai_description
    on posts for each row execute function posts_search_terms()`.execute(db);
  await sql`create or replace function post_hashtags_count() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into hashtags (tag, posts_count) values (new.tag, 1)
          on conflict (tag) do update set posts_count = hashtags.posts_count + 1;
      else
        update hashtags set posts_count = posts_count - 1 where tag = old.tag;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger post_hashtags_count after insert or delete on post_hashtags
    for each row execute function post_hashtags_count()`.execute(db);
  await sql`update posts set caption = caption`.execute(db);

  await sql`create index users_search_name_trgm_idx on users using gin (search_fold(name) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index users_search_username_trgm_idx on users using gin (lower(username) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index conversations_search_title_trgm_idx on conversations
    using gin (search_fold(coalesce(title, '')) gin_trgm_ops)`.execute(db);

  await sql`create table search_recent (
    user_id integer not null references users(id) on delete cascade,
    scope text not null check (scope in ('media', 'messenger')),
    query text not null,
    searched_at timestamptz not null default now(),
    primary key (user_id, scope, query))`.execute(db);
  await sql`create index search_recent_user_idx on search_recent (user_id, scope, searched_at desc)`.execute(
    db,
  );
}

async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists search_recent`.execute(db);
  await sql`drop index if exists conversations_search_title_trgm_idx`.execute(db);
  await sql`drop index if exists users_search_username_trgm_idx`.execute(db);
  await sql`drop index if exists users_search_name_trgm_idx`.execute(db);
  await sql`drop index if exists posts_ai_tags_idx`.execute(db);
  await sql`drop trigger if exists posts_search_terms on posts`.execute(db);
  await sql`drop trigger if exists posts_search_fill on posts`.execute(db);
  await sql`drop table if exists search_words, hashtags, post_hashtags`.execute(db);
  await sql`alter table posts drop column if exists search_vector, drop column if exists search_text`.execute(
    db,
  );
  await sql`drop function if exists posts_search_terms(), post_hashtags_count(), posts_search_fill(),
    search_post_text(text, text[], text), search_tag_words(text[]), search_fold(text)`.execute(db);
}

/**
 * The vocabulary's trigram index as GiST instead of GIN. A typo's neighbours are the 8 words most similar to it
 * (`repository.neighbours`): GIN hands back every word sharing enough trigrams, each read and ranked, while GiST
 * walks its tree of trigram signatures. On the evaluation's vocabulary (4,160 words of fortunes-ru) on PGlite, the
 * neighbours of the 500 evaluation queries took 6.5–7.2 s with GIN and 1.0 s with GiST, the same SQL.
 */
const searchWordsGist: Migration = {
  async up(db) {
    await sql`create index search_words_gist_idx on search_words using gist (word gist_trgm_ops)`.execute(db);
    await sql`drop index if exists search_words_trgm_idx`.execute(db);
  },
  async down(db) {
    await sql`create index search_words_trgm_idx on search_words using gin (word gin_trgm_ops)`.execute(db);
    await sql`drop index if exists search_words_gist_idx`.execute(db);
  },
};

export const searchMigrations: Record<string, Migration> = {
  '2500-search-index': { up, down },
  '2700-search-words-gist': searchWordsGist,
};
