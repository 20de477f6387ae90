import type { Events } from '../../lib/events.ts';
import type { NotificationsRepository } from './repository.ts';
import type { NotificationsService } from './service.ts';
import { mentionedUsernames, snippet } from './texts.ts';

/**
 * What turns into a notification (spec §3): likes, reposts, comments, follows, @mentions in a caption,
 * a comment or a group or channel message, replies to one's comment, and replies to one's message in a group
 * or channel. In a
 * personal chat the message itself reaches the other person, so it notifies nothing more. Returns the
 * detach.
 */
export function attachNotificationListeners(
  events: Events,
  repo: NotificationsRepository,
  service: NotificationsService,
): () => void {
  /** Mentioned users among `allowed` (or anyone when null), minus those in `skip`. */
  async function mentioned(text: string, skip: Set<number>, allowed?: (ids: number[]) => Promise<number[]>) {
    const users = (await repo.usersByName(mentionedUsernames(text)))
      .map((u) => u.id)
      .filter((id) => !skip.has(id));
    return allowed ? allowed(users) : users;
  }

  async function engagement(type: 'like' | 'repost', postId: number, actorId: number) {
    const post = await repo.post(postId);
    if (!post) return;
    await service.notify(
      { userId: post.user_id, actorId, type, postId, aggKey: `${type}:${postId}` },
      `${type}:${actorId}:${postId}`,
    );
  }

  const off = [
    events.on('post.liked', (e) => engagement('like', e.postId, e.userId)),
    events.on('post.reposted', (e) => engagement('repost', e.postId, e.userId)),
    events.on('post.commented', async (e) => {
      const post = await repo.post(e.postId);
      if (!post) return;
      const text = snippet(e.text);
      const skip = new Set([e.userId, post.user_id]);
      // A reply tells the answered comment's author (the post's author too, instead of 'commented').
      const repliedTo = e.parent && e.parent.authorId !== e.userId ? e.parent.authorId : null;
      if (repliedTo !== null) {
        skip.add(repliedTo);
        await service.notify({
          userId: repliedTo,
          actorId: e.userId,
          type: 'reply',
          postId: e.postId,
          place: 'comment',
          snippet: text,
        });
      }
      if (repliedTo !== post.user_id) {
        await service.notify({
          userId: post.user_id,
          actorId: e.userId,
          type: 'comment',
          postId: e.postId,
          snippet: text,
        });
      }
      for (const userId of await mentioned(e.text, skip)) {
        await service.notify({
          userId,
          actorId: e.userId,
          type: 'mention',
          postId: e.postId,
          place: 'comment',
          snippet: text,
        });
      }
    }),
    events.on('post.published', async (e) => {
      for (const userId of await mentioned(e.caption, new Set([e.userId]))) {
        await service.notify({
          userId,
          actorId: e.userId,
          type: 'mention',
          postId: e.postId,
          place: 'caption',
          snippet: snippet(e.caption),
        });
      }
    }),
    events.on('post.deleted', (e) => service.postDeleted(e.authorId)),
    events.on('user.followed', async (e) => {
      await service.notify(
        { userId: e.followeeId, actorId: e.followerId, type: 'follow' },
        `follow:${e.followerId}`,
      );
    }),
    events.on('message.created', async ({ conversation, message }) => {
      if (conversation.type !== 'group' && conversation.type !== 'channel') return;
      const place = conversation.type;
      const text = snippet(message.content);
      const skip = new Set([message.sender_id]);
      const replyTo = message.reply_to;
      const members = (ids: number[]) => repo.membersAmong(conversation.id, ids);
      const at = new Date(message.created_at);
      // The quoted author may have left or been removed since: the reply's text is not theirs to read.
      if (
        replyTo &&
        !replyTo.is_deleted &&
        replyTo.sender_id !== message.sender_id &&
        (await members([replyTo.sender_id])).length > 0
      ) {
        skip.add(replyTo.sender_id);
        await service.notify({
          userId: replyTo.sender_id,
          actorId: message.sender_id,
          type: 'reply',
          conversationId: conversation.id,
          place,
          snippet: text,
          at,
        });
      }
      for (const userId of await mentioned(message.content, skip, members)) {
        await service.notify({
          userId,
          actorId: message.sender_id,
          type: 'mention',
          conversationId: conversation.id,
          place,
          snippet: text,
          at,
        });
      }
    }),
  ];
  return () => {
    for (const detach of off) detach();
  };
}
