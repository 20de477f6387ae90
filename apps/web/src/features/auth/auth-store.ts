import type { AuthSession, Me } from '@kadr/contract';
import { create } from 'zustand';
import { StorageKeys } from '../../shared/storage/keys.ts';
import { local } from '../../shared/storage/local.ts';
import { clearPrivateData } from '../../shared/storage/private-data.ts';

/**
 * Who is using the app. A stored token with its stored user starts `signedIn` but `unconfirmed`: the pages
 * render and fetch at once with the token (no round trip before content) while GET /auth/me
 * confirms it in the background — a 401 there, or on any call, signs out. `checking`: a stored token
 * without a readable user waits for that answer.
 */
export type AuthState =
  | { status: 'checking'; token: string; user: null }
  | { status: 'signedIn'; token: string; user: Me; unconfirmed?: true }
  | { status: 'guest' };

interface AuthStore {
  auth: AuthState;
  /** Re-reads auth from localStorage (at start, after the data-version check). */
  hydrate: () => void;
  signIn: (session: AuthSession) => void;
  /** The server confirmed the session (or returned a fresher user). */
  setUser: (user: Me) => void;
  /** The server could not be asked: a session without a stored user falls back to the sign-in screen. */
  resolveOffline: () => void;
  clear: () => void;
}

const AUTH_KEYS = [
  StorageKeys.authAccessToken,
  StorageKeys.authUser,
  StorageKeys.userId,
  StorageKeys.userName,
  StorageKeys.username,
] as const;

function isMe(value: unknown): value is Me {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Partial<Me>;
  return typeof user.id === 'number' && typeof user.username === 'string' && typeof user.name === 'string';
}

export function clearStoredAuth(): void {
  local.remove(...AUTH_KEYS);
}

function persistUser(user: Me): void {
  local.setJson(StorageKeys.authUser, user);
  local.set(StorageKeys.userId, String(user.id));
  local.set(StorageKeys.userName, user.name);
  local.set(StorageKeys.username, user.username);
}

/** Reads the stored session; corrupt `auth:user` data clears all auth data. */
export function readStoredAuth(): AuthState {
  const stored = local.getJson(StorageKeys.authUser);
  if (stored !== undefined && ('corrupt' in stored || !isMe(stored.value))) {
    clearStoredAuth();
    return { status: 'guest' };
  }
  const token = local.get(StorageKeys.authAccessToken);
  if (!token) {
    clearStoredAuth();
    return { status: 'guest' };
  }
  return stored && isMe(stored.value)
    ? { status: 'signedIn', token, user: stored.value, unconfirmed: true }
    : { status: 'checking', token, user: null };
}

export const useAuthStore = create<AuthStore>((set, get) => ({
  auth: readStoredAuth(),
  hydrate: () => set({ auth: readStoredAuth() }),
  signIn: ({ access_token, user }) => {
    local.set(StorageKeys.authAccessToken, access_token);
    persistUser(user);
    set({ auth: { status: 'signedIn', token: access_token, user } });
  },
  setUser: (user) => {
    const { auth } = get();
    if (auth.status === 'guest') return;
    persistUser(user);
    set({ auth: { status: 'signedIn', token: auth.token, user } });
  },
  resolveOffline: () => {
    if (get().auth.status === 'checking') set({ auth: { status: 'guest' } });
  },
  /**
   * Signing out (or the server ending the session): the session and everything private the person left on
   * this device — unsent messages, drafts, cached chats (shared/storage/private-data.ts). The caller that
   * holds the query client clears it too.
   */
  clear: () => {
    void clearPrivateData(null);
    set({ auth: { status: 'guest' } });
  },
}));

export const getAccessToken = (): string | null => {
  const { auth } = useAuthStore.getState();
  return auth.status === 'guest' ? null : auth.token;
};

/** The signed-in user, or null while checking or signed out. */
export function useCurrentUser(): Me | null {
  return useAuthStore((state) => (state.auth.status === 'signedIn' ? state.auth.user : null));
}
