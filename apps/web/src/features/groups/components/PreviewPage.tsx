import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, isApiError } from '../../../shared/api/client.ts';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { messengerKeys } from '../../messenger/api/messenger-keys.ts';
import { groupsKeys } from '../api/groups-api.ts';
import { groupsStrings as S } from '../strings.ts';
import g from './groups.module.css';

const openChat = (navigate: ReturnType<typeof useNavigate>, key: string) =>
  navigate('/messenger', { state: { openChatKey: key } });

/** /messenger/invite/{token}: a member opens the group; others see the preview with join (spec §4.11). */
export function GroupInvitePage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const group = useQuery({
    queryKey: groupsKeys.invite(token),
    queryFn: ({ signal }) => api.call(groupsEndpoints.invitePreview, { params: { token }, signal }),
    retry: false,
  });
  if (group.data?.isMember) openChat(navigate, `group:${group.data.id}`);
  const join = async () => {
    setBusy(true);
    try {
      const joined = await api.call(groupsEndpoints.joinByInvite, { params: { token } });
      await queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
      openChat(navigate, `group:${joined.id}`);
    } catch (err) {
      window.alert(`${S.joinFailed}${isApiError(err) ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className={g.page} data-testid="group-preview">
      {group.isPending ? (
        <Spinner />
      ) : group.isError ? (
        <p>{isApiError(group.error) ? group.error.message : S.notFound}</p>
      ) : (
        <>
          <h1>{group.data.name}</h1>
          {group.data.description ? <p>{group.data.description}</p> : null}
          <p className={g.muted}>{S.memberCount(group.data.memberCount)}</p>
          <p>{S.notMember}</p>
          <button type="button" className={g.primary} disabled={busy} onClick={() => void join()}>
            {S.join}
          </button>
        </>
      )}
    </main>
  );
}

/** /messenger/channel/{slug}: the channel preview a mention link opens, with subscribe. */
export function ChannelPreviewPage() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const channel = useQuery({
    queryKey: groupsKeys.slug(slug),
    queryFn: ({ signal }) => api.call(channelsEndpoints.bySlug, { params: { slug }, signal }),
    retry: false,
  });
  const posts = useQuery({
    queryKey: [...groupsKeys.slug(slug), 'posts'],
    enabled: channel.data !== undefined,
    queryFn: ({ signal }) =>
      api.call(channelsEndpoints.posts, {
        params: { id: channel.data?.id ?? 0 },
        query: { limit: 5 },
        signal,
      }),
  });
  const subscribe = async () => {
    if (!channel.data) return;
    await api.call(channelsEndpoints.subscribe, { params: { id: channel.data.id } });
    await queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
    openChat(navigate, `channel:${channel.data.id}`);
  };
  return (
    <main className={g.page} data-testid="channel-preview">
      {channel.isPending ? (
        <Spinner />
      ) : channel.isError ? (
        <p>{isApiError(channel.error) ? channel.error.message : S.notFound}</p>
      ) : (
        <>
          <h1>{channel.data.name}</h1>
          <p className={g.muted}>@{channel.data.slug}</p>
          {channel.data.description ? <p>{channel.data.description}</p> : null}
          <p className={g.muted}>{S.subscriberCount(channel.data.subscribers_count)}</p>
          {(posts.data?.messages ?? []).length === 0 ? <p className={g.muted}>{S.noPosts}</p> : null}
          {(posts.data?.messages ?? []).map((m) => (
            <p key={m.id}>{m.content}</p>
          ))}
          {channel.data.is_subscribed ? (
            <button
              type="button"
              className={g.primary}
              onClick={() => openChat(navigate, `channel:${channel.data.id}`)}
            >
              {S.openGroup}
            </button>
          ) : (
            <button type="button" className={g.primary} onClick={() => void subscribe()}>
              {S.subscribe}
            </button>
          )}
        </>
      )}
    </main>
  );
}
