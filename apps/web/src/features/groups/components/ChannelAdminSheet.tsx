import type { ChannelAdmin } from '@kadr/contract';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { useId, useState } from 'react';
import { api } from '../../../shared/api/client.ts';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { useRoomAction } from '../hooks/use-room-action.ts';
import { groupsStrings as S } from '../strings.ts';
import g from './groups.module.css';
import { type PickableUser, UserPicker } from './UserPicker.tsx';

type Right = 'can_post' | 'can_edit_others' | 'can_delete_others';
const RIGHTS: readonly { key: Right; label: string }[] = [
  { key: 'can_post', label: S.rights.post },
  { key: 'can_edit_others', label: S.rights.editOthers },
  { key: 'can_delete_others', label: S.rights.deleteOthers },
];

type Rights = Record<Right, boolean>;

function RightsFields({ rights, onChange }: { rights: Rights; onChange: (next: Rights) => void }) {
  const rightsId = useId();
  return (
    <fieldset className={g.rights} aria-labelledby={rightsId}>
      <legend id={rightsId}>{S.adminRights}</legend>
      {RIGHTS.map((r) => (
        <label key={r.key} className={g.check}>
          <input
            type="checkbox"
            checked={rights[r.key]}
            onChange={(e) => onChange({ ...rights, [r.key]: e.currentTarget.checked })}
          />
          {r.label}
        </label>
      ))}
    </fieldset>
  );
}

function SheetActions({
  error,
  label,
  disabled,
  onConfirm,
  onClose,
}: {
  error: string | null;
  label: string;
  disabled: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <>
      {error ? (
        <p className={g.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className={g.row}>
        <button type="button" className={g.primary} disabled={disabled} onClick={onConfirm}>
          {label}
        </button>
        <button type="button" className={g.secondary} onClick={onClose}>
          {S.cancel}
        </button>
      </div>
    </>
  );
}

/**
 * The owner appoints an administrator: a subscriber (offered first) or anyone found by search, with the
 * three rights of spec §7.5. Someone not yet an administrator is invited and becomes one on accepting.
 */
export function ChannelAdminSheet({
  channelId,
  subscribers,
  admins,
  onClose,
}: {
  channelId: number;
  subscribers: readonly PickableUser[];
  admins: ReadonlySet<number>;
  onClose: () => void;
}) {
  const [picked, setPicked] = useState<PickableUser | null>(null);
  const [rights, setRights] = useState<Rights>({
    can_post: true,
    can_edit_others: false,
    can_delete_others: false,
  });
  const action = useRoomAction();
  const [invited, setInvited] = useState(false);
  const appoint = async (user: PickableUser) => {
    let asked = false;
    const done = await action.run(async () => {
      const answer = await api.call(channelsEndpoints.addAdmin, {
        params: { id: channelId },
        body: { user_id: user.id, ...rights },
      });
      asked = (answer.invited ?? []).includes(user.id);
    });
    if (done && asked) setInvited(true);
    else if (done) onClose();
  };
  if (invited)
    return (
      <Sheet title={S.addAdmin} onClose={onClose} centered>
        <div className={g.form}>
          <p role="status">{S.adminInvitationSent}</p>
          <button type="button" className={g.primary} onClick={onClose}>
            {S.done}
          </button>
        </div>
      </Sheet>
    );
  return (
    <Sheet title={S.addAdmin} onClose={onClose} centered>
      <div className={g.form}>
        <p className={g.muted}>{S.chooseAdmin}</p>
        <UserPicker
          picked={picked ? [picked] : []}
          onToggle={(u) => setPicked(picked?.id === u.id ? null : u)}
          suggestions={subscribers.filter((s) => !admins.has(s.id))}
          unavailable={admins}
          unavailableNote={S.roles.admin}
        />
        <RightsFields rights={rights} onChange={setRights} />
        <SheetActions
          error={action.error}
          label={S.appointAdmin}
          disabled={!picked || action.busy}
          onConfirm={() => picked && void appoint(picked)}
          onClose={onClose}
        />
      </div>
    </Sheet>
  );
}

/** The owner changes an administrator's rights in place (`PATCH /channels/:id/admins/:userId`). */
export function ChannelRightsSheet({
  channelId,
  admin,
  onClose,
}: {
  channelId: number;
  admin: ChannelAdmin;
  onClose: () => void;
}) {
  const [rights, setRights] = useState<Rights>({
    can_post: admin.can_post,
    can_edit_others: admin.can_edit_others,
    can_delete_others: admin.can_delete_others,
  });
  const action = useRoomAction();
  const save = async () => {
    const done = await action.run(() =>
      api.call(channelsEndpoints.updateAdmin, {
        params: { id: channelId, userId: admin.user_id },
        body: rights,
      }),
    );
    if (done) onClose();
  };
  return (
    <Sheet title={S.editRightsOf(admin.name)} onClose={onClose} centered>
      <div className={g.form}>
        <RightsFields rights={rights} onChange={setRights} />
        <SheetActions
          error={action.error}
          label={S.save}
          disabled={action.busy}
          onConfirm={() => void save()}
          onClose={onClose}
        />
      </div>
    </Sheet>
  );
}
