import type { LoginBody, LoginChallenge, RegisterBody } from '@kadr/contract';
import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { ErrorCode } from '@kadr/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api, isApiError } from '../../../shared/api/client.ts';
import { useAuthStore } from '../auth-store.ts';
import { deviceTokens } from '../lib/device-tokens.ts';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

/**
 * Confirms a stored token once at start, beside the page's own requests (they do not wait for it); a 401
 * is handled by the API client (auth cleared).
 */
export function useAuthBootstrap(): void {
  const checkingToken = useAuthStore((s) =>
    s.auth.status === 'checking' || (s.auth.status === 'signedIn' && s.auth.unconfirmed)
      ? s.auth.token
      : null,
  );
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
    // Offline the check does not fail, it waits (paused) for the network: the stored user opens the app
    // now, with what this device kept (the messenger's chats and drafts); a 401 later still signs out.
    else if (me.fetchStatus === 'paused') resolveOffline();
  }, [checkingToken, me.data, me.isError, me.error, me.fetchStatus, setUser, resolveOffline]);
}

/**
 * Signs in. This device's token for the account goes along (the owner's device is never slowed down);
 * when the server asks for a proof-of-work challenge (many wrong passwords for the username), the solver
 * is loaded, the challenge solved and the login sent again; `onChallenge` says so meanwhile.
 */
export function useLoginMutation(onChallenge?: (solving: boolean) => void) {
  const signIn = useAuthStore((s) => s.signIn);
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (credentials: Pick<LoginBody, 'username' | 'password'>) => {
      const device = deviceTokens.of(credentials.username);
      const body: LoginBody = { ...credentials, ...(device ? { device_token: device } : {}) };
      try {
        return await api.call(authEndpoints.login, { body });
      } catch (error) {
        const challenge = isApiError(error) ? loginChallengeOf(error.body) : null;
        if (!challenge) throw error;
        onChallenge?.(true);
        try {
          const { solveChallenge } = await import('../lib/pow-solver.ts');
          const nonce = await solveChallenge(challenge);
          return await api.call(authEndpoints.login, {
            body: { ...body, challenge: { token: challenge.token, nonce } },
          });
        } finally {
          onChallenge?.(false);
        }
      }
    },
    onSuccess: (session, credentials) => {
      deviceTokens.remember(credentials.username, session.device_token);
      signIn(session);
      navigate('/home', { replace: true });
    },
  });
}

/** The challenge a 403 `login_challenge_required` carries, if the answer is one. */
function loginChallengeOf(body: Readonly<Record<string, unknown>>): LoginChallenge | null {
  if (body.code !== ErrorCode.loginChallengeRequired) return null;
  const challenge = body.challenge as Partial<LoginChallenge> | undefined;
  return typeof challenge?.token === 'string' && typeof challenge.difficulty === 'number'
    ? (challenge as LoginChallenge)
    : null;
}

export function useRegisterMutation() {
  const signIn = useAuthStore((s) => s.signIn);
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (body: RegisterBody) => api.call(authEndpoints.register, { body }),
    onSuccess: (session, body) => {
      deviceTokens.remember(body.username, session.device_token);
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
