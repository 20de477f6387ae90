import type { Group, GroupMember } from '@kadr/contract';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { useState } from 'react';
import { api } from '../../../shared/api/client.ts';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { useRoomAction } from '../hooks/use-room-action.ts';
import { groupsStrings as S } from '../strings.ts';
import { ChatNameFields } from './ChatNameFields.tsx';
import g from './groups.module.css';
import { type PickableUser, UserPicker } from './UserPicker.tsx';

function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p className={g.error} role="alert">
      {error}
    </p>
  ) : null;
}

/** Admins rename the group and change its description. */
export function EditGroupSheet({ group, onClose }: { group: Group; onClose: () => void }) {
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  const action = useRoomAction();
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const done = await action.run(() =>
      api.call(groupsEndpoints.update, {
        params: { id: group.id },
        body: { name: name.trim(), description: description.trim() },
      }),
    );
    if (done) onClose();
  };
  return (
    <Sheet title={S.editGroup} onClose={onClose} centered>
      <form className={g.form} onSubmit={(e) => void save(e)}>
        <ChatNameFields
          name={name}
          onName={setName}
          description={description}
          onDescription={setDescription}
          rows={3}
        />
        <ErrorLine error={action.error} />
        <div className={g.row}>
          <button type="submit" className={g.primary} disabled={name.trim() === '' || action.busy}>
            {S.save}
          </button>
          <button type="button" className={g.secondary} onClick={onClose}>
            {S.cancel}
          </button>
        </div>
      </form>
    </Sheet>
  );
}

/** Admins add people after creation, picked by search like in the create-group modal. */
export function AddMembersSheet({
  groupId,
  members,
  onClose,
}: {
  groupId: number;
  members: readonly GroupMember[];
  onClose: () => void;
}) {
  const [picked, setPicked] = useState<PickableUser[]>([]);
  const action = useRoomAction();
  const inGroup = new Set(members.map((m) => m.user_id));
  const toggle = (user: PickableUser) =>
    setPicked((held) =>
      held.some((p) => p.id === user.id) ? held.filter((p) => p.id !== user.id) : [...held, user],
    );
  const [invited, setInvited] = useState(0);
  const add = async () => {
    let asked = 0;
    const done = await action.run(async () => {
      const answer = await api.call(groupsEndpoints.addMembers, {
        params: { id: groupId },
        body: { user_ids: picked.map((u) => u.id) },
      });
      asked = answer.invited?.length ?? 0;
    });
    if (done && asked > 0) setInvited(asked);
    else if (done) onClose();
  };
  if (invited > 0)
    return (
      <Sheet title={S.addMembers} onClose={onClose} centered>
        <div className={g.form}>
          <p role="status">{S.invitationsSent(invited)}</p>
          <button type="button" className={g.primary} onClick={onClose}>
            {S.done}
          </button>
        </div>
      </Sheet>
    );
  return (
    <Sheet title={S.addMembers} onClose={onClose} centered>
      <div className={g.form}>
        <UserPicker
          picked={picked}
          onToggle={toggle}
          unavailable={inGroup}
          unavailableNote={S.alreadyMember}
        />
        <ErrorLine error={action.error} />
        <div className={g.row}>
          <button
            type="button"
            className={g.primary}
            disabled={picked.length === 0 || action.busy}
            onClick={() => void add()}
          >
            {picked.length > 0 ? `${S.add} (${picked.length})` : S.add}
          </button>
          <button type="button" className={g.secondary} onClick={onClose}>
            {S.cancel}
          </button>
        </div>
      </div>
    </Sheet>
  );
}

/** The owner picks a member, then confirms; the old owner stays an admin (the server's rule). */
export function TransferOwnerSheet({
  group,
  members,
  meId,
  onClose,
}: {
  group: Group;
  members: readonly GroupMember[];
  meId: number;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState<GroupMember | null>(null);
  const action = useRoomAction();
  const transfer = async (to: GroupMember) => {
    const done = await action.run(() =>
      api.call(groupsEndpoints.transferOwner, { params: { id: group.id }, body: { user_id: to.user_id } }),
    );
    if (done) onClose();
  };
  return (
    <Sheet title={S.transferOwner} onClose={onClose} centered>
      <div className={g.form}>
        {chosen ? (
          <>
            <p>{S.transferConfirm(group.name, chosen.name)}</p>
            <ErrorLine error={action.error} />
            <div className={g.row}>
              <button
                type="button"
                className={g.danger}
                disabled={action.busy}
                onClick={() => void transfer(chosen)}
              >
                {S.transfer}
              </button>
              <button
                type="button"
                className={g.secondary}
                onClick={() => {
                  action.clearError();
                  setChosen(null);
                }}
              >
                {S.back}
              </button>
            </div>
          </>
        ) : (
          <>
            <p className={g.muted}>{S.chooseNewOwner}</p>
            <ul className={g.results} aria-label={S.members}>
              {members
                .filter((m) => m.user_id !== meId)
                .map((m) => (
                  <li key={m.user_id}>
                    <button type="button" onClick={() => setChosen(m)}>
                      {m.name} <span className={g.muted}>{S.roles[m.role]}</span>
                    </button>
                  </li>
                ))}
            </ul>
          </>
        )}
      </div>
    </Sheet>
  );
}
