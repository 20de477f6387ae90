import type { Group } from '@kadr/contract';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Flag } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, isApiError } from '../../../shared/api/client.ts';
import { withEmoji } from '../../../shared/emoji/emoji-text.tsx';
import { useGoBack } from '../../../shared/lib/go-back.ts';
import { Avatar } from '../../../shared/ui/Avatar.tsx';
import { Spinner } from '../../../shared/ui/Spinner.tsx';
import { refetchChatsAfterWrite } from '../../messenger/api/cache-writes.ts';
import { Markdown } from '../../messenger/components/Markdown.tsx';
import { openReport } from '../../moderation/feature.ts';
import { groupsKeys, roomMessagesOptions } from '../api/groups-api.ts';
import { groupsStrings as S } from '../strings.ts';
import g from './groups.module.css';

/**
 * The preview gives way to the chat: in place of it in the history, so «Назад» from the chat returns to where
 * the link was opened — not to the preview, which would open the chat again (a member is sent on at once).
 */
const openChat = (navigate: ReturnType<typeof useNavigate>, key: string) =>
  navigate('/messenger', { replace: true, state: { openChatKey: key } });

/** «Назад» from a preview: where one came from (a chat's link), or the chat list. */
function PreviewBack() {
  const goBack = useGoBack();
  return (
    <button
      type="button"
      className={g.previewBack}
      data-testid="preview-back"
      onClick={() => goBack('/messenger')}
    >
      <ArrowLeft size={18} aria-hidden />
      {S.back}
    </button>
  );
}

/** «Пожаловаться» on a room one can see without joining (the server takes reports on public rooms). */
function ReportRoom({ kind, id }: { kind: 'group' | 'channel'; id: number }) {
  return (
    <button type="button" className={g.secondary} onClick={() => openReport({ kind, targetId: id })}>
      <Flag size={16} aria-hidden /> {kind === 'group' ? S.reportGroup : S.reportChannel}
    </button>
  );
}

/** /messenger/invite/{token}: a member opens the group; others see the preview with join (spec §4.11). */
export function GroupInvitePage() {
  const { token = '' } = useParams();
  return (
    <GroupPreview
      queryKey={groupsKeys.invite(token)}
      load={(signal) => api.call(groupsEndpoints.invitePreview, { params: { token }, signal })}
      join={() => api.call(groupsEndpoints.joinByInvite, { params: { token } })}
    />
  );
}

/** /messenger/group/{slug}: a public group found by chat search, previewed with join. */
export function GroupSlugPage() {
  const { slug = '' } = useParams();
  return (
    <GroupPreview
      queryKey={[...groupsKeys.slug(slug), 'group']}
      load={(signal) => api.call(groupsEndpoints.bySlug, { params: { slug }, signal })}
      join={(group) => api.call(groupsEndpoints.join, { params: { id: group.id } })}
    />
  );
}

function GroupPreview({
  queryKey,
  load,
  join: joinGroup,
}: {
  queryKey: readonly unknown[];
  load: (signal: AbortSignal) => Promise<Group>;
  join: (group: Group) => Promise<Group>;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const group = useQuery({ queryKey, queryFn: ({ signal }) => load(signal), retry: false });
  const memberOf = group.data?.isMember ? group.data.id : null;
  useEffect(() => {
    if (memberOf === null) return;
    // The history starts loading now, beside the chat list the messenger waits for: the chat then opens
    // with its messages instead of fetching them only once it is on screen. Only when nothing is cached: the
    // effect runs again when the redirect changes `navigate`, and must not fetch the history a second time.
    const history = roomMessagesOptions('group', memberOf);
    if (queryClient.getQueryData(history.queryKey) === undefined) void queryClient.prefetchQuery(history);
    openChat(navigate, `group:${memberOf}`);
  }, [memberOf, navigate, queryClient]);
  const join = async () => {
    if (!group.data) return;
    setBusy(true);
    setFailure(null);
    try {
      const joined = await joinGroup(group.data);
      await refetchChatsAfterWrite(queryClient);
      openChat(navigate, `group:${joined.id}`);
    } catch (err) {
      setFailure(`${S.joinFailed}${isApiError(err) ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className={g.page} data-testid="group-preview">
      <PreviewBack />
      {group.isPending ? (
        <Spinner />
      ) : group.isError ? (
        <p>{isApiError(group.error) ? group.error.message : S.notFound}</p>
      ) : (
        <>
          <Avatar name={group.data.name} url={group.data.avatar_url} size={96} alt="" />
          <h1>{group.data.name}</h1>
          {group.data.slug ? <p className={g.muted}>@{group.data.slug}</p> : null}
          {group.data.description ? <p>{withEmoji(group.data.description)}</p> : null}
          <p className={g.muted}>{S.memberCount(group.data.memberCount)}</p>
          <p>{S.notMember}</p>
          <button type="button" className={g.primary} disabled={busy} onClick={() => void join()}>
            {S.join}
          </button>
          {group.data.is_public ? <ReportRoom kind="group" id={group.data.id} /> : null}
          {failure ? (
            <p className={g.error} role="alert">
              {failure}
            </p>
          ) : null}
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
    await refetchChatsAfterWrite(queryClient);
    openChat(navigate, `channel:${channel.data.id}`);
  };
  return (
    <main className={g.page} data-testid="channel-preview">
      <PreviewBack />
      {channel.isPending ? (
        <Spinner />
      ) : channel.isError ? (
        <p>{isApiError(channel.error) ? channel.error.message : S.notFound}</p>
      ) : (
        <>
          <Avatar name={channel.data.name} url={channel.data.avatar_url} size={96} alt="" />
          <h1>{channel.data.name}</h1>
          <p className={g.muted}>@{channel.data.slug}</p>
          {channel.data.description ? <p>{withEmoji(channel.data.description)}</p> : null}
          <p className={g.muted}>{S.subscriberCount(channel.data.subscribers_count)}</p>
          {(posts.data?.messages ?? []).length === 0 ? <p className={g.muted}>{S.noPosts}</p> : null}
          {/* Posts as the channel shows them: markdown rendered, never its raw marks. */}
          <ul className={g.previewPosts} aria-label={S.latestPosts}>
            {(posts.data?.messages ?? []).map((m) => (
              <li key={m.id} className={g.previewPost} data-testid="preview-post" data-user-content>
                <Markdown source={m.content} />
              </li>
            ))}
          </ul>
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
          {channel.data.is_public || channel.data.is_subscribed ? (
            <ReportRoom kind="channel" id={channel.data.id} />
          ) : null}
        </>
      )}
    </main>
  );
}
