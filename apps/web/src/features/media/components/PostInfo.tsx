import type { Post } from '@kadr/contract';
import { Bookmark, Heart, MessageCircle, Repeat2, Volume2, VolumeX } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { seedProfile } from '../../profile/api/seed-profile.ts';
import type { PostAction } from '../api/post-actions.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import { mediaStrings } from '../strings.ts';
import styles from './FeedPost.module.css';
import { ShareSheet } from './ShareSheet.tsx';

interface Props {
  post: Post;
  /** Toggles an action, or sets it to `desired`. */
  onAction: (action: PostAction, desired?: boolean) => void;
  showMute: boolean;
  muted: boolean;
  onToggleMute: () => void;
}

/** Author, caption and the action column (like, comments, save, repost) over a post. */
export function PostInfo({ post, onAction, showMute, muted, onToggleMute }: Props) {
  const openComments = useFeedUi((s) => s.openComments);
  const [sharing, setSharing] = useState(false);
  return (
    <>
      <div className={styles.info} data-no-gesture>
        <Link
          className={styles.author}
          to={`/${post.user.username}`}
          onPointerDown={() => seedProfile(post.user)}
          onFocus={() => seedProfile(post.user)}
          onClick={() => seedProfile(post.user)}
        >
          <Avatar
            name={post.user.name}
            url={post.user.avatar_thumbnail_url ?? post.user.avatar_url}
            size={36}
          />
          <span>@{post.user.username}</span>
        </Link>
        {post.caption ? <p className={styles.caption}>{withEmoji(post.caption)}</p> : null}
      </div>
      <div className={styles.actions} data-no-gesture>
        <button
          type="button"
          className={styles.action}
          aria-label={`${mediaStrings.like} ${post.likes_count}`}
          aria-pressed={post.is_liked}
          data-active={post.is_liked}
          onClick={() => onAction('like')}
        >
          <Heart size={28} aria-hidden="true" fill={post.is_liked ? 'currentColor' : 'none'} />
          <span data-testid="likes-count">{post.likes_count}</span>
        </button>
        <button
          type="button"
          className={styles.action}
          aria-label={`${mediaStrings.comments} ${post.comments_count}`}
          onClick={() => openComments(post.id)}
        >
          <MessageCircle size={28} aria-hidden="true" />
          <span data-testid="comments-count">{post.comments_count}</span>
        </button>
        <button
          type="button"
          className={styles.action}
          aria-label={mediaStrings.save}
          aria-pressed={post.is_saved}
          data-active={post.is_saved}
          onClick={() => onAction('save')}
        >
          <Bookmark size={28} aria-hidden="true" fill={post.is_saved ? 'currentColor' : 'none'} />
        </button>
        <button
          type="button"
          className={styles.action}
          aria-label={`${mediaStrings.repost} ${post.reposts_count}`}
          aria-pressed={post.is_reposted}
          data-active={post.is_reposted}
          aria-haspopup="dialog"
          onClick={() => setSharing(true)}
        >
          <Repeat2 size={28} aria-hidden="true" />
          <span data-testid="reposts-count">{post.reposts_count}</span>
        </button>
        {showMute ? (
          <button
            type="button"
            className={styles.action}
            aria-label={muted ? mediaStrings.unmute : mediaStrings.mute}
            onClick={onToggleMute}
          >
            {muted ? <VolumeX size={28} aria-hidden="true" /> : <Volume2 size={28} aria-hidden="true" />}
          </button>
        ) : null}
      </div>
      {sharing ? (
        <ShareSheet
          post={post}
          onClose={() => setSharing(false)}
          onReposted={() => onAction('repost', true)}
          onUndoRepost={() => onAction('repost', false)}
        />
      ) : null}
    </>
  );
}
