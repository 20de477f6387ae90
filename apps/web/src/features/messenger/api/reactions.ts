import type { MessageReaction, ReactionKind } from '@kadr/contract';
import { messengerReactionEndpoints as r } from '@kadr/contract/messenger/endpoints';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import type { Conversation } from './conversation-cache.ts';
import { messengerKeys } from './messenger-keys.ts';

export const reactionsApi = {
  set: (messageId: number, reaction: ReactionKind, on: boolean) =>
    on
      ? api.call(r.react, { params: { id: messageId, reaction } })
      : api.call(r.unreact, { params: { id: messageId, reaction } }),
};

/**
 * Puts a message's reactions into every cached history that holds it (personal chats, favorites, groups
 * and channels all live under the messenger's conversation keys). Unchanged histories keep their object.
 */
export function writeReactions(queryClient: QueryClient, messageId: number, reactions: MessageReaction[]) {
  queryClient.setQueriesData<Conversation>({ queryKey: messengerKeys.conversations() }, (held) => {
    if (!held?.messages?.some((m) => m.id === messageId)) return held;
    return {
      ...held,
      messages: held.messages.map((m) => (m.id === messageId ? { ...m, reactions } : m)),
    };
  });
}

/** The reactions with the viewer's own one added or taken away, as the server will answer. */
export function toggled(
  reactions: readonly MessageReaction[],
  reaction: ReactionKind,
  me: { id: number; name: string },
  on: boolean,
): MessageReaction[] {
  const out = reactions.map((x) => ({ ...x, users: [...x.users] }));
  const held = out.find((x) => x.reaction === reaction);
  const mine = held?.users.some((u) => u.id === me.id) ?? false;
  if (on && !mine) {
    if (held) {
      held.count += 1;
      held.users.push({ id: me.id, name: me.name });
    } else out.push({ reaction, count: 1, users: [{ id: me.id, name: me.name }] });
  } else if (!on && mine && held) {
    held.count -= 1;
    held.users = held.users.filter((u) => u.id !== me.id);
  }
  return out.filter((x) => x.count > 0);
}

/** Toggles one reaction: drawn at once, the server's answer (or the previous state on failure) wins. */
export function useToggleReaction(me: { id: number; name: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { messageId: number; reaction: ReactionKind; on: boolean; before: MessageReaction[] }) =>
      reactionsApi.set(v.messageId, v.reaction, v.on),
    onMutate: (v) => writeReactions(queryClient, v.messageId, toggled(v.before, v.reaction, me, v.on)),
    onSuccess: (answer) => writeReactions(queryClient, answer.message_id, answer.reactions),
    onError: (_e, v) => writeReactions(queryClient, v.messageId, v.before),
  });
}
