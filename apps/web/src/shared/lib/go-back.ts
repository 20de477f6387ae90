import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * Whether a step back stays inside the app. React Router numbers its own history entries (`idx` in
 * `history.state`); the first page opened from a link is 0, and `history.length` counts entries of
 * other sites (about:blank, a search page) too, so it cannot tell.
 */
export function canGoBackInApp(state: unknown = window.history.state): boolean {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' && idx > 0;
}

/**
 * The one "go back, or else to the parent route" of the app: every close and back action uses it so
 * no close ever leaves the app (a chat, a post or a story opened from a direct link).
 */
export function useGoBack(): (parent: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (parent: string) => {
      if (canGoBackInApp()) navigate(-1);
      else navigate(parent, { replace: true });
    },
    [navigate],
  );
}
