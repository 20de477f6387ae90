import type { ItemActionBody, ModerationTargetKind, ReportReason } from '@kadr/contract';
import { moderationEndpoints } from '@kadr/contract/moderation/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { moderationKeys } from './moderation-keys.ts';

/** The role changes rarely: checked once per session, again when the screen opens. */
const ROLE_STALE_MS = 10 * 60_000;

export function useModerationMe() {
  return useQuery({
    queryKey: moderationKeys.me(),
    queryFn: () => api.call(moderationEndpoints.me),
    staleTime: ROLE_STALE_MS,
  });
}

export function useQueue(status: 'open' | 'closed', enabled: boolean) {
  return useQuery({
    queryKey: moderationKeys.queue(status),
    queryFn: () => api.call(moderationEndpoints.queue, { query: { status } }),
    enabled,
  });
}

export function useAudit(enabled: boolean) {
  return useQuery({
    queryKey: moderationKeys.audit(),
    queryFn: () => api.call(moderationEndpoints.audit),
    enabled,
  });
}

export function useModerators(enabled: boolean) {
  return useQuery({
    queryKey: moderationKeys.moderators(),
    queryFn: () => api.call(moderationEndpoints.moderators),
    enabled,
  });
}

export function useItemAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ItemActionBody }) =>
      api.call(moderationEndpoints.act, { params: { id }, body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: moderationKeys.all }),
  });
}

export function useGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => api.call(moderationEndpoints.grant, { body: { username } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKeys.all }),
  });
}

export function useEndStream() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(moderationEndpoints.endStream, { params: { id }, body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKeys.audit() }),
  });
}

export function useReport() {
  return useMutation({
    mutationFn: (input: {
      kind: ModerationTargetKind;
      targetId: number;
      reason: ReportReason;
      comment: string;
    }) =>
      api.call(moderationEndpoints.report, {
        body: {
          kind: input.kind,
          target_id: input.targetId,
          reason: input.reason,
          ...(input.comment.trim() ? { comment: input.comment.trim() } : {}),
        },
      }),
  });
}

export function useNotices() {
  return useQuery({
    queryKey: moderationKeys.notices(),
    queryFn: () => api.call(moderationEndpoints.notices),
  });
}

export function useReadNotices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(moderationEndpoints.readNotices),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKeys.notices() }),
  });
}

export { moderationKeys };
