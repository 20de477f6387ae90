import type { Me } from '@kadr/contract';
import type { RoomKind } from '../api/groups-api.ts';
import { ChannelInfoPanel } from './ChannelInfoPanel.tsx';
import { GroupInfoPanel } from './GroupInfoPanel.tsx';

export { inviteUrl } from './GroupInfoPanel.tsx';

interface Props {
  kind: RoomKind;
  id: number;
  me: Me;
  onClose: () => void;
  /** The chat is gone for this user (left, deleted, unsubscribed). */
  onGone: () => void;
}

/** Chat info (spec §2.6) of a group or a channel. */
export function ChatInfoPanel({ kind, ...props }: Props) {
  return kind === 'group' ? <GroupInfoPanel {...props} /> : <ChannelInfoPanel {...props} />;
}
