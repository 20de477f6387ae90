import type { LoginBody, RegisterBody } from '@kadr/contract';
import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api, isApiError } from '../../../shared/api/client.ts';
import { useAuthStore } from '../auth-store.ts';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

/** Validates a stored token once at start; a 401 is handled by the API client (auth cleared). */
export function useAuthBootstrap(): void {
  const checkingToken = useAuthStore((s) => (s.auth.status === 'checking' ? s.auth.token : null));
  const setUser = useAuthStore((s) => s.setUser);
  const resolveOffline = useAuthStore((s) => s.resolveOffline);
  const me = useQuery({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => api.call(authEndpoints.me, { signal }),
    enabled: checkingToken !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: (failures, error) =>
      !(isApiError(error) && error.status >= 400 && error.status < 500) && failures < 2,
  });

  useEffect(() => {
    if (checkingToken === null) return;
    if (me.data) setUser(me.data.user);
    else if (me.isError && !(isApiError(me.error) && me.error.status === 401)) resolveOffline();
  }, [checkingToken, me.data, me.isError, me.error, setUser, resolveOffline]);
}

export function useLoginMutation() {
  const signIn = useAuthStore((s) => s.signIn);
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (body: LoginBody) => api.call(authEndpoints.login, { body }),
    onSuccess: (session) => {
      signIn(session);
      navigate('/home', { replace: true });
    },
  });
}

export function useRegisterMutation() {
  const signIn = useAuthStore((s) => s.signIn);
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (body: RegisterBody) => api.call(authEndpoints.register, { body }),
    onSuccess: (session) => {
      signIn(session);
      navigate('/home', { replace: true });
    },
  });
}

/** Revokes the token on the server (best effort), forgets everything local and goes to /login. */
export function useLogoutMutation() {
  const clear = useAuthStore((s) => s.clear);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      try {
        await api.call(authEndpoints.logout);
      } catch {
        // The session ends locally either way; an unreachable server must not keep the user signed in.
      }
    },
    onSettled: () => {
      clear();
      queryClient.clear();
      navigate('/login', { replace: true });
    },
  });
}
