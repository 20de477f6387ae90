import type { Me } from '@kadr/contract';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { useQueryClient } from '@tanstack/react-query';
import { Copy, LogOut, RefreshCw, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { api } from '../../../shared/api/client.ts';
import { messengerKeys } from '../../messenger/api/messenger-keys.ts';
import { groupsKeys, type RoomKind, useChannel, useGroup, useGroupMembers } from '../api/groups-api.ts';
import { groupsStrings as S } from '../strings.ts';
import { GroupAvatarSection } from './GroupAvatarSection.tsx';
import g from './groups.module.css';

interface Props {
  kind: RoomKind;
  id: number;
  me: Me;
  onClose: () => void;
  /** The chat is gone for this user (left, deleted, unsubscribed). */
  onGone: () => void;
}

export const inviteUrl = (token: string) => `${window.location.origin}/messenger/invite/${token}`;

/** Chat info (spec §2.6): members with roles, the invite link (copy, renew, revoke), leave, delete. */
export function ChatInfoPanel(props: Props) {
  return props.kind === 'group' ? <GroupInfo {...props} /> : <ChannelInfo {...props} />;
}

function GroupInfo({ id, me, onClose, onGone }: Props) {
  const queryClient = useQueryClient();
  const group = useGroup(id);
  const members = useGroupMembers(id, group.data?.isMember === true);
  const [copied, setCopied] = useState(false);
  const admin = group.data?.role === 'owner' || group.data?.role === 'admin';
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: groupsKeys.all });
    void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
  };
  const gone = () => {
    refresh();
    onGone();
  };
  const token = group.data?.inviteToken ?? null;
  return (
    <aside className={g.panel} aria-label={S.info}>
      <header className={g.panelHeader}>
        <h2>{group.data?.name ?? S.info}</h2>
        <button type="button" className={g.iconButton} aria-label={S.close} onClick={onClose}>
          <X size={18} aria-hidden />
        </button>
      </header>
      {group.data ? <GroupAvatarSection group={group.data} admin={admin} /> : null}
      {group.data?.description ? <p className={g.muted}>{group.data.description}</p> : null}
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
                <button
                  type="button"
                  className={g.secondary}
                  onClick={() => void api.call(groupsEndpoints.renewInvite, { params: { id } }).then(refresh)}
                >
                  <RefreshCw size={16} aria-hidden /> {S.renewLink}
                </button>
                <button
                  type="button"
                  className={g.secondary}
                  onClick={() =>
                    void api.call(groupsEndpoints.revokeInvite, { params: { id } }).then(refresh)
                  }
                >
                  {S.revokeLink}
                </button>
              </>
            ) : null}
          </div>
        </section>
      ) : admin ? (
        <button
          type="button"
          className={g.secondary}
          onClick={() => void api.call(groupsEndpoints.renewInvite, { params: { id } }).then(refresh)}
        >
          <RefreshCw size={16} aria-hidden /> {S.renewLink}
        </button>
      ) : null}
      <section className={g.block}>
        <h3>
          {S.members} ({group.data?.memberCount ?? 0})
        </h3>
        <ul className={g.members} aria-label={S.members}>
          {(members.data ?? []).map((m) => (
            <li key={m.user_id} className={g.member} data-testid="group-member">
              <span className={g.memberName}>{m.name}</span>
              <span className={g.muted}>{S.roles[m.role]}</span>
              {group.data?.role === 'owner' && m.role === 'member' ? (
                <button
                  type="button"
                  className={g.link2}
                  onClick={() =>
                    void api
                      .call(groupsEndpoints.setRole, {
                        params: { id, userId: m.user_id },
                        body: { role: 'admin' },
                      })
                      .then(refresh)
                  }
                >
                  {S.makeAdmin}
                </button>
              ) : null}
              {admin &&
              m.user_id !== me.id &&
              m.role !== 'owner' &&
              (m.role === 'member' || group.data?.role === 'owner') ? (
                <button
                  type="button"
                  className={g.link2}
                  aria-label={`${S.removeMember}: ${m.name}`}
                  onClick={() =>
                    void api
                      .call(groupsEndpoints.removeMember, { params: { id, userId: m.user_id } })
                      .then(refresh)
                  }
                >
                  {S.removeMember}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      <div className={g.row}>
        {group.data?.role !== 'owner' ? (
          <button
            type="button"
            className={g.danger}
            onClick={() => void api.call(groupsEndpoints.leave, { params: { id } }).then(gone)}
          >
            <LogOut size={16} aria-hidden /> {S.leave}
          </button>
        ) : (
          <button
            type="button"
            className={g.danger}
            onClick={() => {
              // biome-ignore lint/suspicious/noAlert: a yes/no confirmation (spec wording); alert() stays banned
              if (!window.confirm(S.deleteConfirm)) return;
              void api.call(groupsEndpoints.remove, { params: { id } }).then(gone);
            }}
          >
            <Trash2 size={16} aria-hidden /> {S.deleteGroup}
          </button>
        )}
      </div>
    </aside>
  );
}

function ChannelInfo({ id, onClose, onGone }: Props) {
  const queryClient = useQueryClient();
  const channel = useChannel(id);
  const gone = () => {
    void queryClient.invalidateQueries({ queryKey: groupsKeys.all });
    void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
    onGone();
  };
  const c = channel.data;
  return (
    <aside className={g.panel} aria-label={S.info}>
      <header className={g.panelHeader}>
        <h2>{c?.name ?? S.info}</h2>
        <button type="button" className={g.iconButton} aria-label={S.close} onClick={onClose}>
          <X size={18} aria-hidden />
        </button>
      </header>
      {c ? (
        <>
          <p className={g.muted}>@{c.slug}</p>
          {c.description ? <p>{c.description}</p> : null}
          <p className={g.muted}>{S.subscriberCount(c.subscribers_count)}</p>
          <div className={g.row}>
            {c.role === 'owner' ? (
              <button
                type="button"
                className={g.danger}
                onClick={() => {
                  // biome-ignore lint/suspicious/noAlert: a yes/no confirmation (spec wording); alert() stays banned
                  if (!window.confirm(S.deleteConfirm)) return;
                  void api.call(channelsEndpoints.remove, { params: { id } }).then(gone);
                }}
              >
                <Trash2 size={16} aria-hidden /> {S.deleteChannel}
              </button>
            ) : c.is_subscribed ? (
              <button
                type="button"
                className={g.danger}
                onClick={() => void api.call(channelsEndpoints.unsubscribe, { params: { id } }).then(gone)}
              >
                {S.unsubscribe}
              </button>
            ) : null}
          </div>
        </>
      ) : null}
    </aside>
  );
}
