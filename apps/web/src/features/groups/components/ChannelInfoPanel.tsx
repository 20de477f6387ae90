import type { ChannelAdmin, Me } from '@kadr/contract';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { Flag, ShieldPlus, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { api } from '../../../shared/api/client.ts';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { openReport } from '../../moderation/feature.ts';
import { useChannel, useChannelAdmins, useChannelSubscribers } from '../api/groups-api.ts';
import { useRoomAction } from '../hooks/use-room-action.ts';
import { groupsStrings as S } from '../strings.ts';
import { ChannelAdminSheet, ChannelRightsSheet } from './ChannelAdminSheet.tsx';
import g from './groups.module.css';
import { MemberAction, MemberRow } from './MemberAction.tsx';

interface Props {
  id: number;
  me: Me;
  onClose: () => void;
  onGone: () => void;
}

/**
 * Channel info: address, description, subscriber count; administrators see the subscribers and the
 * administrators, and the owner appoints administrators, edits their rights and dismisses them (spec §6, §7.5).
 */
export function ChannelInfoPanel({ id, onClose, onGone }: Props) {
  const channel = useChannel(id);
  const c = channel.data;
  const owner = c?.role === 'owner';
  const admin = owner || c?.role === 'admin';
  const admins = useChannelAdmins(id, admin);
  const subscribers = useChannelSubscribers(id, admin);
  const action = useRoomAction();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ChannelAdmin | null>(null);
  const subscriberList = (subscribers.data?.pages ?? []).flatMap((p) => p.subscribers);
  const adminIds = new Set((admins.data ?? []).map((a) => a.user_id));

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
          {c.description ? <p>{withEmoji(c.description)}</p> : null}
          <p className={g.muted}>{S.subscriberCount(c.subscribers_count)}</p>
          {action.error ? (
            <p className={g.error} role="alert">
              {action.error}
            </p>
          ) : null}
          {admin ? (
            <section className={g.block}>
              <h3>{S.admins}</h3>
              {owner ? (
                <button type="button" className={g.secondary} onClick={() => setAdding(true)}>
                  <ShieldPlus size={16} aria-hidden /> {S.addAdmin}
                </button>
              ) : null}
              <ul className={g.members} aria-label={S.admins}>
                {(admins.data ?? []).map((a) => (
                  <MemberRow key={a.user_id} person={a} testId="channel-admin">
                    {owner && a.role === 'admin' ? (
                      <>
                        <MemberAction label={S.editRights} name={a.name} onClick={() => setEditing(a)} />
                        <MemberAction
                          label={S.removeAdmin}
                          name={a.name}
                          onClick={() =>
                            void action.run(() =>
                              api.call(channelsEndpoints.removeAdmin, { params: { id, userId: a.user_id } }),
                            )
                          }
                        />
                      </>
                    ) : null}
                  </MemberRow>
                ))}
              </ul>
            </section>
          ) : null}
          {admin ? (
            <section className={g.block}>
              <h3>{S.subscribers}</h3>
              <ul className={g.members} aria-label={S.subscribers}>
                {subscriberList.map((s) => (
                  <MemberRow key={s.user_id} person={s} testId="channel-subscriber" />
                ))}
              </ul>
              {subscribers.hasNextPage ? (
                <button
                  type="button"
                  className={g.link2}
                  disabled={subscribers.isFetchingNextPage}
                  onClick={() => void subscribers.fetchNextPage()}
                >
                  {S.showMore}
                </button>
              ) : null}
            </section>
          ) : null}
          <div className={g.row}>
            {owner ? (
              <button
                type="button"
                className={g.danger}
                onClick={() => {
                  // biome-ignore lint/suspicious/noAlert: a yes/no confirmation (spec wording); alert() stays banned
                  if (!window.confirm(S.deleteConfirm)) return;
                  void action
                    .run(() => api.call(channelsEndpoints.remove, { params: { id } }))
                    .then((done) => done && onGone());
                }}
              >
                <Trash2 size={16} aria-hidden /> {S.deleteChannel}
              </button>
            ) : c.is_subscribed ? (
              <button
                type="button"
                className={g.danger}
                onClick={() =>
                  void action
                    .run(() => api.call(channelsEndpoints.unsubscribe, { params: { id } }))
                    .then((done) => done && onGone())
                }
              >
                {S.unsubscribe}
              </button>
            ) : null}
            {!owner ? (
              <button
                type="button"
                className={g.secondary}
                onClick={() => openReport({ kind: 'channel', targetId: id })}
              >
                <Flag size={16} aria-hidden /> {S.reportChannel}
              </button>
            ) : null}
          </div>
          {editing ? (
            <ChannelRightsSheet channelId={id} admin={editing} onClose={() => setEditing(null)} />
          ) : null}
          {adding ? (
            <ChannelAdminSheet
              channelId={id}
              subscribers={subscriberList.map((s) => ({ id: s.user_id, name: s.name, username: s.username }))}
              admins={adminIds}
              onClose={() => setAdding(false)}
            />
          ) : null}
        </>
      ) : null}
    </aside>
  );
}
