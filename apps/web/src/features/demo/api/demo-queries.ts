import type { DemoState } from '@kadr/contract';
import { demoEndpoints } from '@kadr/contract/demo/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';

export const demoKeys = {
  all: ['demo'] as const,
  state: () => [...demoKeys.all, 'state'] as const,
};

/** How often a run in progress is asked about (it takes seconds; the bar moves with it). */
export const DEMO_POLL_MS = 700;

const running = (state: DemoState | undefined) =>
  state?.seeding?.status === 'queued' || state?.seeding?.status === 'running';

/** Whether the demo is offered to me, and my run's progress while it goes (polled until it ends). */
export function useDemoState(enabled: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: demoKeys.state(),
    enabled,
    staleTime: 30_000,
    queryFn: async ({ signal }) => {
      const previous = queryClient.getQueryData<DemoState>(demoKeys.state());
      const state = await api.call(demoEndpoints.state, { signal });
      // The run just finished: everything on screen (home, feed, stories, chats) has new content to fetch.
      if (running(previous) && !running(state))
        void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== demoKeys.all[0] });
      return state;
    },
    refetchInterval: (query) => (running(query.state.data) ? DEMO_POLL_MS : false),
  });
}

export function useStartDemo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(demoEndpoints.seed, {}),
    onSuccess: (state) => queryClient.setQueryData(demoKeys.state(), state),
  });
}
