import type { Invitation } from '@kadr/contract';
import { useAnswerInvitation, useInvitations } from '../api/invitations-queries.ts';
import { notificationsStrings } from '../strings.ts';
import { AnswerList } from './AnswerList.tsx';

const T = notificationsStrings;

const sentence = (i: Invitation) =>
  i.kind === 'group'
    ? T.invitationToGroup(i.inviter.name, i.place_name)
    : T.invitationToAdmin(i.inviter.name, i.place_name);

/**
 * «Приглашения» at the top of the notifications panel: each from someone the user does not let add them to
 * groups and channels (or a channel owner's offer to administer it), accepted or declined here.
 */
export function InvitationsList() {
  const invitations = useInvitations();
  const answer = useAnswerInvitation();
  const items = (invitations.data ?? []).map((i) => ({
    key: i.id,
    name: i.inviter.name,
    avatarUrl: i.inviter.avatar_thumbnail_url ?? i.inviter.avatar_url,
    sentence: sentence(i),
    createdAt: i.created_at,
  }));
  return (
    <AnswerList
      id="notifications-invitations"
      title={T.invitations}
      items={items}
      error={answer.error}
      failedText={T.answerFailed}
      pending={answer.isPending}
      onAnswer={(id, accept) => answer.mutate({ id: Number(id), accept })}
    />
  );
}
