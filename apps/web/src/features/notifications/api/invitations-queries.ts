import type { Invitation } from '@kadr/contract';
import { invitationsEndpoints } from '@kadr/contract/invitations/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';

/** «Приглашения»: invitations into groups and channels from people the user does not let add them. */
export const invitationsKeys = {
  all: ['invitations'] as const,
  list: () => [...invitationsKeys.all, 'list'] as const,
};

/** Kept current by the socket (`invitations-changed`), so it never goes stale on its own. */
export function useInvitations() {
  return useQuery({
    queryKey: invitationsKeys.list(),
    queryFn: async ({ signal }): Promise<Invitation[]> =>
      (await api.call(invitationsEndpoints.list, { signal })).invitations,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export const usePendingInvitations = (): number => useInvitations().data?.length ?? 0;

/** Accepts or declines; the invitation leaves the list at once and comes back if the answer failed. */
export function useAnswerInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, accept }: { id: number; accept: boolean }) =>
      accept
        ? api.call(invitationsEndpoints.accept, { params: { id } })
        : api.call(invitationsEndpoints.decline, { params: { id } }),
    onMutate: async ({ id }) => {
      await queryClient.cancelQueries({ queryKey: invitationsKeys.list() });
      const before = queryClient.getQueryData<Invitation[]>(invitationsKeys.list());
      queryClient.setQueryData<Invitation[]>(invitationsKeys.list(), (list) =>
        list?.filter((i) => i.id !== id),
      );
      return { before };
    },
    onError: (_error, _vars, context) => {
      if (context?.before) queryClient.setQueryData(invitationsKeys.list(), context.before);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: invitationsKeys.list() }),
  });
}
