import { useQuery } from '@tanstack/react-query';
import { useContext } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../../shared/api/client.ts';
import { tileImage } from '../../../shared/lib/post-image.ts';
import { messengerApi } from '../api/messenger-api.ts';
import { messengerKeys } from '../api/messenger-keys.ts';
import { MessengerStaleTime } from '../api/messenger-queries.ts';
import { PostCardChat } from '../lib/post-card-context.ts';
import { messengerStrings } from '../strings.ts';
import styles from './MessageBubble.module.css';

/** A preview of a media post linked in a message; a plain link when the post is gone or fails. */
export function PostPreviewCard({ postId }: { postId: number }) {
  // Inside a chat the card opens the feed in chat mode on this post (spec §2.4).
  const chat = useContext(PostCardChat);
  const post = useQuery({
    queryKey: messengerKeys.postPreview(postId),
    queryFn: ({ signal }) => messengerApi.post(postId, signal),
    staleTime: MessengerStaleTime.post,
    retry: (failures, error) => !(isApiError(error) && error.status < 500) && failures < 1,
  });
  const to = `/media/post/${postId}`;
  const data = post.data?.post;
  if (!data) {
    if (post.isPending) return null;
    return (
      <Link className={styles.postLink} to={to} state={chat ?? undefined}>
        {messengerStrings.openPost}
      </Link>
    );
  }
  const thumb = tileImage(data);
  return (
    <Link
      className={styles.postCard}
      to={to}
      state={chat ?? undefined}
      data-testid="post-preview"
      aria-label={messengerStrings.openPost}
    >
      {thumb ? (
        <img
          className={styles.postThumb}
          src={thumb.src}
          width={thumb.width}
          height={thumb.height}
          alt={data.ai_description}
          loading="lazy"
        />
      ) : null}
      <span className={styles.postText}>
        <strong>@{data.user.username}</strong>
        <span>{data.caption || messengerStrings.post}</span>
      </span>
    </Link>
  );
}
