import type { GroupMember, Me } from '@kadr/contract';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { Copy, Crown, Flag, LogOut, Pencil, RefreshCw, Trash2, UserPlus, X } from 'lucide-react';
import { useState } from 'react';
import { api } from '../../../shared/api/client.ts';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { openReport } from '../../moderation/feature.ts';
import { useGroup, useGroupMembers } from '../api/groups-api.ts';
import { useRoomAction } from '../hooks/use-room-action.ts';
import { groupsStrings as S } from '../strings.ts';
import { GroupAvatarSection } from './GroupAvatarSection.tsx';
import { AddMembersSheet, EditGroupSheet, TransferOwnerSheet } from './GroupSheets.tsx';
import g from './groups.module.css';
import { MemberAction, MemberRow } from './MemberAction.tsx';

export const inviteUrl = (token: string) => `${window.location.origin}/messenger/invite/${token}`;

interface Props {
  id: number;
  me: Me;
  onClose: () => void;
  onGone: () => void;
}

type Open = 'edit' | 'add' | 'transfer' | null;

/**
 * Group info: photo, description, invite link, members with roles and the actions the server allows
 * the caller (spec §2.6, §6): admins edit the group, add members, renew or revoke the link and remove
 * members; the owner also makes and unmakes admins, hands ownership over and deletes the group.
 */
export function GroupInfoPanel({ id, me, onClose, onGone }: Props) {
  const group = useGroup(id);
  const members = useGroupMembers(id, group.data?.isMember === true);
  const action = useRoomAction();
  const [copied, setCopied] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const role = group.data?.role ?? null;
  const owner = role === 'owner';
  const admin = owner || role === 'admin';
  const token = group.data?.inviteToken ?? null;
  const list = members.data ?? [];
  const renew = () => void action.run(() => api.call(groupsEndpoints.renewInvite, { params: { id } }));
  const setRole = (m: GroupMember, next: 'admin' | 'member') =>
    void action.run(() =>
      api.call(groupsEndpoints.setRole, { params: { id, userId: m.user_id }, body: { role: next } }),
    );
  // An admin removes members; only the owner removes admins; nobody removes the owner (server rule).
  const removable = (m: GroupMember) =>
    admin && m.user_id !== me.id && m.role !== 'owner' && (m.role === 'member' || owner);

  return (
    <aside className={g.panel} aria-label={S.info}>
      <header className={g.panelHeader}>
        <h2>{group.data?.name ?? S.info}</h2>
        <button type="button" className={g.iconButton} aria-label={S.close} onClick={onClose}>
          <X size={18} aria-hidden />
        </button>
      </header>
      {group.data ? <GroupAvatarSection group={group.data} admin={admin} /> : null}
      {group.data?.description ? <p className={g.muted}>{withEmoji(group.data.description)}</p> : null}
      {admin ? (
        <button type="button" className={g.secondary} onClick={() => setOpen('edit')}>
          <Pencil size={16} aria-hidden /> {S.editGroup}
        </button>
      ) : null}
      {action.error ? (
        <p className={g.error} role="alert">
          {action.error}
        </p>
      ) : null}
      {token ? (
        <section className={g.block}>
          <h3>{S.inviteLink}</h3>
          <code className={g.link} data-testid="invite-link">
            {inviteUrl(token)}
          </code>
          <div className={g.row}>
            <button
              type="button"
              className={g.secondary}
              onClick={() => {
                void navigator.clipboard?.writeText(inviteUrl(token)).catch(() => undefined);
                setCopied(true);
                setTimeout(() => setCopied(false), 2000);
              }}
            >
              <Copy size={16} aria-hidden /> {copied ? S.copied : S.copyLink}
            </button>
            {admin ? (
              <>
                <button type="button" className={g.secondary} onClick={renew}>
                  <RefreshCw size={16} aria-hidden /> {S.renewLink}
                </button>
                <button
                  type="button"
                  className={g.secondary}
                  onClick={() =>
                    void action.run(() => api.call(groupsEndpoints.revokeInvite, { params: { id } }))
                  }
                >
                  {S.revokeLink}
                </button>
              </>
            ) : null}
          </div>
        </section>
      ) : admin ? (
        <button type="button" className={g.secondary} onClick={renew}>
          <RefreshCw size={16} aria-hidden /> {S.renewLink}
        </button>
      ) : null}
      <section className={g.block}>
        <h3>
          {S.members} ({group.data?.memberCount ?? 0})
        </h3>
        {admin ? (
          <button type="button" className={g.secondary} onClick={() => setOpen('add')}>
            <UserPlus size={16} aria-hidden /> {S.addMembers}
          </button>
        ) : null}
        <ul className={g.members} aria-label={S.members}>
          {list.map((m) => (
            <MemberRow key={m.user_id} person={m} testId="group-member">
              {owner && m.role === 'member' ? (
                <MemberAction label={S.makeAdmin} name={m.name} onClick={() => setRole(m, 'admin')} />
              ) : null}
              {owner && m.role === 'admin' ? (
                <MemberAction label={S.removeAdmin} name={m.name} onClick={() => setRole(m, 'member')} />
              ) : null}
              {removable(m) ? (
                <MemberAction
                  label={S.removeMember}
                  name={m.name}
                  onClick={() =>
                    void action.run(() =>
                      api.call(groupsEndpoints.removeMember, { params: { id, userId: m.user_id } }),
                    )
                  }
                />
              ) : null}
            </MemberRow>
          ))}
        </ul>
      </section>
      <div className={g.row}>
        {owner && list.length > 1 ? (
          <button type="button" className={g.secondary} onClick={() => setOpen('transfer')}>
            <Crown size={16} aria-hidden /> {S.transferOwner}
          </button>
        ) : null}
        {group.data && !owner ? (
          <button
            type="button"
            className={g.danger}
            onClick={() =>
              void action
                .run(() => api.call(groupsEndpoints.leave, { params: { id } }))
                .then((done) => done && onGone())
            }
          >
            <LogOut size={16} aria-hidden /> {S.leave}
          </button>
        ) : null}
        {group.data && !owner ? (
          <button
            type="button"
            className={g.secondary}
            onClick={() => openReport({ kind: 'group', targetId: id })}
          >
            <Flag size={16} aria-hidden /> {S.reportGroup}
          </button>
        ) : null}
        {owner ? (
          <button
            type="button"
            className={g.danger}
            onClick={() => {
              // biome-ignore lint/suspicious/noAlert: a yes/no confirmation (spec wording); alert() stays banned
              if (!window.confirm(S.deleteConfirm)) return;
              void action
                .run(() => api.call(groupsEndpoints.remove, { params: { id } }))
                .then((done) => done && onGone());
            }}
          >
            <Trash2 size={16} aria-hidden /> {S.deleteGroup}
          </button>
        ) : null}
      </div>
      {open === 'edit' && group.data ? (
        <EditGroupSheet group={group.data} onClose={() => setOpen(null)} />
      ) : null}
      {open === 'add' ? <AddMembersSheet groupId={id} members={list} onClose={() => setOpen(null)} /> : null}
      {open === 'transfer' && group.data ? (
        <TransferOwnerSheet group={group.data} members={list} meId={me.id} onClose={() => setOpen(null)} />
      ) : null}
    </aside>
  );
}
