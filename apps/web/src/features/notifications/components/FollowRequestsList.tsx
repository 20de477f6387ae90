import { useAnswerFollowRequest, useFollowRequests } from '../../profile/api/follow-requests.ts';
import { notificationsStrings } from '../strings.ts';
import { AnswerList } from './AnswerList.tsx';

const T = notificationsStrings;

/** «Заявки на подписку» in the notifications panel: a private account's owner accepts or declines each. */
export function FollowRequestsList() {
  const requests = useFollowRequests();
  const answer = useAnswerFollowRequest();
  const items = (requests.data?.users ?? []).map((u) => ({
    key: u.username,
    name: u.name,
    avatarUrl: u.avatar_thumbnail_url ?? u.avatar_url,
    sentence: T.followRequest(u.name, u.username),
  }));
  return (
    <AnswerList
      id="notifications-follow-requests"
      title={T.followRequests}
      items={items}
      error={answer.error}
      failedText={T.followRequestFailed}
      pending={answer.isPending}
      onAnswer={(username, accept) => answer.mutate({ username: String(username), accept })}
    />
  );
}
