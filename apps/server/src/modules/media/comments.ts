import { type Comment, ErrorText, Limits } from '@kadr/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { ReachPolicy } from '../settings/reach.ts';
import type { MediaChange } from './cache/feed-cache.ts';
import { type CommentRow, toComment } from './mappers.ts';

/** Comments on posts: oldest first; adding one raises the post's comments_count in the same transaction. */
export function commentsService(
  db: Kysely<Database>,
  changed: (change: MediaChange) => Promise<void>,
  limits: RateLimits,
  /** A comment or reply never reaches someone walled off by a block (the post's or the parent's author). */
  reach?: Pick<ReachPolicy, 'assertCanInteract'>,
) {
  async function visiblePost(postId: number) {
    const post = await db
      .selectFrom('posts')
      .select(['id', 'user_id'])
      .where('id', '=', postId)
      .where('status', '=', 'done')
      .executeTakeFirst();
    if (!post) throw errors.notFound(ErrorText.postNotFound);
    return post;
  }

  const select = () =>
    db
      .selectFrom('post_comments as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select([
        'c.id',
        'c.post_id',
        'c.comment_text',
        'c.created_at',
        'c.user_id',
        'c.parent_id',
        'u.username',
        'u.name',
        'u.avatar_url',
      ]);

  return {
    /**
     * The thread as `viewer` sees it: without the comments of a suspended author (back when the suspension
     * is lifted) and without those the viewer reported (moderation's tables).
     */
    async list(postId: number, viewer: number | null = null): Promise<Comment[]> {
      await visiblePost(postId);
      let query = select()
        .where('c.post_id', '=', postId)
        .where(sql<boolean>`not exists (select 1 from user_suspensions s where s.user_id = c.user_id)`);
      if (viewer !== null)
        query = query.where(
          sql<boolean>`not exists (select 1 from moderation_hidden h
            where h.user_id = ${viewer} and h.kind = 'comment' and h.target_id = c.id)`,
        );
      const rows = await query.orderBy('c.id').limit(500).execute();
      return rows.map((r) => toComment(r as CommentRow));
    },

    /** Adds a comment (a reply when `parentId` names a comment of the same post); answers the parent's author too. */
    async add(
      postId: number,
      userId: number,
      text: string,
      parentId?: number,
    ): Promise<{ comment: Comment; parentAuthorId: number | null }> {
      const commentText = text.trim();
      if (commentText === '')
        throw errors.validation({ comment_text: ErrorText.commentEmpty }, ErrorText.commentEmpty);
      if ([...commentText].length > Limits.comment) {
        throw errors.validation({ comment_text: ErrorText.commentTooLong }, ErrorText.commentTooLong);
      }
      const post = await visiblePost(postId);
      await reach?.assertCanInteract(userId, post.user_id);
      let parentAuthorId: number | null = null;
      if (parentId !== undefined) {
        const parent = await db
          .selectFrom('post_comments')
          .select('user_id')
          .where('id', '=', parentId)
          .where('post_id', '=', postId)
          .executeTakeFirst();
        if (!parent) throw errors.notFound(ErrorText.commentParentNotFound);
        parentAuthorId = parent.user_id;
        await reach?.assertCanInteract(userId, parentAuthorId);
      }
      await limits.consume('comment.create', { user: userId });
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('post_comments')
          .values({
            post_id: postId,
            user_id: userId,
            comment_text: commentText,
            parent_id: parentId ?? null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('posts')
          .set((eb) => ({ comments_count: eb('comments_count', '+', 1) }))
          .where('id', '=', postId)
          .execute();
        return row.id;
      });
      await changed({ posts: [postId] });
      const row = await select().where('c.id', '=', id).executeTakeFirstOrThrow();
      return { comment: toComment(row as CommentRow), parentAuthorId };
    },
  };
}

export type CommentsService = ReturnType<typeof commentsService>;
