import { ShieldX } from 'lucide-react';
import { errorMessage } from '../../../shared/api/client.ts';
import { showToast } from '../../../shared/ui/toast.ts';
import { useEndStream, useModerationMe } from '../api/moderation-queries.ts';
import { moderationStrings as s } from './strings.ts';

interface Props {
  streamId: number;
  /** The live screen's own button look. */
  className?: string;
  /** The label's look: a narrow header may hide it visually (it stays the button's accessible name). */
  labelClassName?: string;
}

/**
 * «Завершить эфир (модератор)» on any live stream's screen, for moderators only (the role is asked of the
 * server, which checks it again on the end itself). Asks first: the stream ends for everyone watching.
 */
export function ModeratorEndStream({ streamId, className, labelClassName }: Props) {
  const me = useModerationMe();
  const end = useEndStream();
  if (me.data?.is_moderator !== true) return null;
  const onClick = () => {
    // biome-ignore lint/suspicious/noAlert: a yes/no confirmation; alert() stays banned
    if (!window.confirm(s.endThisStreamConfirm)) return;
    end.mutate(streamId, {
      onSuccess: () => showToast(s.streamEnded),
      onError: (error) => showToast(s.actionFailed(errorMessage(error))),
    });
  };
  return (
    <button
      type="button"
      className={className}
      onClick={onClick}
      disabled={end.isPending}
      data-testid="moderator-end-stream"
    >
      <ShieldX size={16} aria-hidden /> <span className={labelClassName}>{s.endStreamAsModerator}</span>
    </button>
  );
}
