import { ConfirmSheet } from '../../../shared/ui/ConfirmSheet.tsx';
import type { PendingDelete } from '../hooks/use-message-actions.ts';
import { messengerStrings } from '../strings.ts';
import { chatStrings } from './strings.ts';

/** «Удалить у всех» asks first: it cannot be undone and reaches every member. */
export function DeleteForEveryone({
  pending,
  onConfirm,
  onClose,
}: {
  pending: PendingDelete;
  onConfirm: (id: number) => void;
  onClose: () => void;
}) {
  return (
    <ConfirmSheet
      title={chatStrings.deleteForEveryoneTitle}
      text={pending.others ? chatStrings.deleteOthersText : chatStrings.deleteForEveryoneText}
      confirmLabel={messengerStrings.deleteForEveryone}
      onConfirm={() => onConfirm(pending.id)}
      onClose={onClose}
    />
  );
}
