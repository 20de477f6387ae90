import { Limits } from '@kadr/contract/browser';
import { type FormEvent, useState } from 'react';
import { ru } from '../../../shared/i18n/ru.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Button } from '../../../shared/ui/Button.tsx';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { normalizeComment, useAddCommentMutation, useCommentsQuery } from '../api/comments-queries.ts';
import styles from './Panels.module.css';

const T = ru.feed.commentsPanel;

/** Comments of one post (spec §2.3, §5): oldest first; a comment is trimmed and 1–500 long. */
export function CommentsPanel({ postId, onClose }: { postId: number; onClose: () => void }) {
  const comments = useCommentsQuery(postId);
  const add = useAddCommentMutation(postId);
  const me = useCurrentUser();
  const [text, setText] = useState('');
  const ready = normalizeComment(text);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    add.mutate(ready, {
      onSuccess: () => setText(''),
      onError: () => window.alert(T.failed),
    });
  };

  let list: React.ReactNode;
  if (comments.isPending) list = <Spinner />;
  else if (!comments.data?.comments.length) list = <p className={styles.empty}>{T.empty}</p>;
  else
    list = (
      <ul className={styles.list}>
        {comments.data.comments.map((comment) => (
          <li key={comment.id} className={styles.comment}>
            <Avatar name={comment.user.name} url={comment.user.avatar_url} size={32} />
            <div className={styles.commentBody}>
              <span className={styles.commentAuthor}>@{comment.user.username}</span>
              <p className={styles.commentText}>{comment.comment_text}</p>
            </div>
          </li>
        ))}
      </ul>
    );

  return (
    <Sheet title={T.title} onClose={onClose}>
      {list}
      {me ? (
        <form className={styles.form} onSubmit={submit}>
          <input
            className={styles.input}
            value={text}
            maxLength={Limits.comment}
            placeholder={T.placeholder}
            aria-label={T.placeholder}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Button type="submit" disabled={!ready || add.isPending}>
            {T.send}
          </Button>
        </form>
      ) : null}
    </Sheet>
  );
}
