import type { AuthSession, Me } from '@kadr/contract';
import { create } from 'zustand';
import { StorageKeys } from '../../shared/storage/keys.ts';
import { local } from '../../shared/storage/local.ts';

/**
 * Who is using the app. `checking`: a stored token is being validated with GET /auth/me; the user is
 * the stored copy (if readable) and is not trusted until the server confirms it.
 */
export type AuthState =
  | { status: 'checking'; token: string; user: Me | null }
  | { status: 'signedIn'; token: string; user: Me }
  | { status: 'guest' };

interface AuthStore {
  auth: AuthState;
  /** Re-reads auth from localStorage (at start, after the data-version check). */
  hydrate: () => void;
  signIn: (session: AuthSession) => void;
  /** The server confirmed the session (or returned a fresher user). */
  setUser: (user: Me) => void;
  /** The server could not be asked: keep the stored user, or fall back to the sign-in screen. */
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
  return { status: 'checking', token, user: stored && isMe(stored.value) ? stored.value : null };
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
    const { auth } = get();
    if (auth.status !== 'checking') return;
    set({
      auth: auth.user ? { status: 'signedIn', token: auth.token, user: auth.user } : { status: 'guest' },
    });
  },
  clear: () => {
    clearStoredAuth();
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
