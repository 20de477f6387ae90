import type { QueryClient } from '@tanstack/react-query';
import { getAccessToken, useAuthStore } from '../features/auth/auth-store.ts';
import { api } from '../shared/api/client.ts';

/** The API client reads the token from the auth store; any 401 on an authed call signs the user out. */
export function connectApiToAuth(queryClient: QueryClient): void {
  api.configure({
    getToken: getAccessToken,
    onUnauthorized: () => {
      useAuthStore.getState().clear();
      queryClient.clear();
    },
  });
}
