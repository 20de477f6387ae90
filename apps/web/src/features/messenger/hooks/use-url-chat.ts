import type { ChatListItem, Me, Profile } from '@kadr/contract';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { api, isApiError, NETWORK_ERROR_CODE } from '../../../shared/api/client.ts';
import { StaleTime } from '../../../shared/api/query-client.ts';
import { profileKeys } from '../../profile/api/profile-queries.ts';

export function draftChatFor(profile: Profile): ChatListItem {
  return {
    type: 'personal',
    user_id: profile.id,
    username: profile.name,
    profile_username: profile.username,
    avatar_url: profile.avatar_url,
    avatar_thumbnail_url: profile.avatar_thumbnail_url,
    is_favorites: false,
    is_pinned: false,
    pin_order: null,
    unread_count: 0,
    last_message: null,
    last_time: new Date().toISOString(),
    last_seen: profile.last_seen,
  };
}

/**
 * /messenger/{username} (spec §2.6): opens the chat with that user, or a new one. One's own username and a
 * profile the server refuses redirect to /messenger; an unknown one is a missing chat.
 */
export function useUrlChat(
  username: string | undefined,
  me: Me | null,
  chats: readonly ChatListItem[] | undefined,
  open: (chat: ChatListItem, draft: boolean) => void,
) {
  const navigate = useNavigate();
  const own = username !== undefined && me !== null && username === me.username;
  // A chat already in the list is found by its username: no profile request (a click in the list
  // navigates here on every switch).
  const listed =
    username === undefined || own
      ? undefined
      : chats?.find(
          (chat) => chat.type === 'personal' && !chat.is_favorites && chat.profile_username === username,
        );
  const profile = useQuery({
    queryKey: profileKeys.detail(username ?? ''),
    queryFn: ({ signal }) => api.call(profileEndpoints.get, { params: { username: username ?? '' }, signal }),
    enabled: username !== undefined && me !== null && !own && listed === undefined,
    staleTime: StaleTime.profile,
    retry: false,
  });

  // A user who does not exist is a missing chat: the view says so (#18 item 3); other answers of the server
  // go back to the list. No answer at all (offline) keeps the URL: the chat kept on the device opens once its
  // snapshot is restored (offline-cache.ts), which can come after the failed request.
  const missing = isApiError(profile.error) && profile.error.status === 404;
  const refused = isApiError(profile.error) && profile.error.code !== NETWORK_ERROR_CODE && !missing;
  useEffect(() => {
    if (own || refused) navigate('/messenger', { replace: true });
  }, [own, refused, navigate]);
  // A link to someone the device keeps no chat with opens when the network is back: TanStack started
  // "online" and saw no change, so the request is asked again here.
  const unanswered = isApiError(profile.error) && profile.error.code === NETWORK_ERROR_CODE;
  const { refetch } = profile;
  useEffect(() => {
    if (!unanswered) return;
    const retry = () => void refetch();
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [unanswered, refetch]);

  const target = profile.data;
  // Each URL opens its chat once; later list refreshes or a close must not reopen it.
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (username === undefined) handled.current = null;
  }, [username]);
  useEffect(() => {
    if (listed && username !== undefined && handled.current !== username) {
      handled.current = username;
      open(listed, false);
      return;
    }
    if (!target || !chats || !me || target.id === me.id || target.username !== username) return;
    if (handled.current === username) return;
    handled.current = username;
    const existing = chats.find(
      (chat) => chat.type === 'personal' && !chat.is_favorites && chat.user_id === target.id,
    );
    open(existing ?? draftChatFor(target), existing === undefined);
  }, [listed, target, chats, me, open, username]);
  return { missing: missing && username !== undefined };
}
