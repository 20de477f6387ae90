import type { Comment } from '@kadr/contract';
import { Limits } from '@kadr/contract/browser';
import { Send, X } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { openReport } from '../../moderation/feature.ts';
import { normalizeComment, useAddCommentMutation, useCommentsQuery } from '../api/comments-queries.ts';
import { commentTime } from '../lib/comment-time.ts';
import { mediaStrings } from '../strings.ts';
import styles from './Panels.module.css';

const T = mediaStrings.commentsPanel;

/**
 * Comments of one post (spec §2.3, §5): oldest first; a comment is trimmed and 1–500 long. 'Ответить' on a
 * comment makes the next one a reply to it (its author is notified), started with their @username.
 */
export function CommentsPanel({ postId, onClose }: { postId: number; onClose: () => void }) {
  const comments = useCommentsQuery(postId);
  const add = useAddCommentMutation(postId);
  const me = useCurrentUser();
  // Reported comments are hidden from the reporter.
  const [reported, setReported] = useState<ReadonlySet<number>>(new Set());
  const [text, setText] = useState('');
  const [failed, setFailed] = useState(false);
  const [replyTo, setReplyTo] = useState<Comment | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const ready = normalizeComment(text);
  const now = Date.now();
  const byId = new Map((comments.data?.comments ?? []).map((c) => [c.id, c]));

  const startReply = (comment: Comment) => {
    setReplyTo(comment);
    const mention = `@${comment.user.username} `;
    setText((current) => (current.startsWith(mention) ? current : mention + current));
    input.current?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setFailed(false);
    add.mutate(
      { text: ready, ...(replyTo ? { parentId: replyTo.id } : {}) },
      {
        onSuccess: () => {
          setText('');
          setReplyTo(null);
        },
        onError: () => setFailed(true),
      },
    );
  };

  let list: React.ReactNode;
  if (comments.isPending) list = <Spinner />;
  else if (!comments.data?.comments.length) list = <p className={styles.empty}>{T.empty}</p>;
  else
    list = (
      <ul className={styles.list}>
        {comments.data.comments
          .filter((comment) => !reported.has(comment.id))
          .map((comment) => {
            const parent = comment.parent_id !== null ? byId.get(comment.parent_id) : undefined;
            return (
              <li
                key={comment.id}
                className={parent ? `${styles.comment} ${styles.commentReply}` : styles.comment}
                data-testid="comment"
              >
                <Avatar name={comment.user.name} url={comment.user.avatar_url} size={32} />
                <div className={styles.commentBody}>
                  <span className={styles.commentHead}>
                    <span className={styles.commentAuthor}>@{comment.user.username}</span>
                    <time className={styles.commentMeta} dateTime={comment.created_at}>
                      {commentTime(comment.created_at, now)}
                    </time>
                  </span>
                  {parent ? (
                    <span className={styles.commentMeta}>{T.inReplyTo(parent.user.username)}</span>
                  ) : null}
                  <p className={styles.commentText}>{withEmoji(comment.comment_text)}</p>
                  {me ? (
                    <button
                      type="button"
                      className={styles.replyButton}
                      aria-label={T.replyTo(comment.user.username)}
                      onClick={() => startReply(comment)}
                    >
                      {T.reply}
                    </button>
                  ) : null}
                  {me && me.username !== comment.user.username ? (
                    <button
                      type="button"
                      className={styles.replyButton}
                      aria-label={T.reportComment(comment.user.username)}
                      onClick={() =>
                        openReport({
                          kind: 'comment',
                          targetId: comment.id,
                          onReported: () => setReported((ids) => new Set(ids).add(comment.id)),
                        })
                      }
                    >
                      {T.report}
                    </button>
                  ) : null}
                </div>
              </li>
            );
          })}
      </ul>
    );

  return (
    <Sheet title={T.title} onClose={onClose}>
      {list}
      {failed ? (
        <p className={styles.error} role="alert">
          {T.failed}
        </p>
      ) : null}
      {me && replyTo ? (
        <div className={styles.replying}>
          <span>{T.replyingTo(replyTo.user.username)}</span>
          <button
            type="button"
            className={styles.replyCancel}
            aria-label={T.cancelReply}
            onClick={() => setReplyTo(null)}
          >
            <X size={16} aria-hidden="true" focusable="false" />
          </button>
        </div>
      ) : null}
      {me ? (
        <form className={styles.form} onSubmit={submit}>
          <input
            ref={input}
            className={styles.input}
            value={text}
            maxLength={Limits.comment}
            placeholder={T.placeholder}
            aria-label={T.placeholder}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          {/* An icon, so the field keeps room for its whole placeholder on a phone. */}
          <button
            type="submit"
            className={styles.sendButton}
            disabled={!ready || add.isPending}
            aria-label={T.send}
            title={T.send}
          >
            <Send size={20} aria-hidden="true" focusable="false" />
          </button>
        </form>
      ) : null}
    </Sheet>
  );
}
