import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToast } from '../../../shared/ui/toast.ts';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { postOf } from '../../../test/posts.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { runShellCommand } from '../../shell/lib/shell-commands.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import { useMediaCommands } from './use-media-commands.ts';

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
);

describe('media shell commands', () => {
  beforeEach(() => {
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
    useFeedUi.setState({ activePost: postOf({ id: 8, user_id: me.id }), panel: null, rotation: {} });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('open the panels and rotate the post on screen', () => {
    renderHook(() => useMediaCommands(), { wrapper });
    runShellCommand('media.modes');
    expect(useFeedUi.getState().panel).toBe('modes');
    runShellCommand('media.feedSettings');
    expect(useFeedUi.getState().panel).toBe('preferences');
    runShellCommand('media.myActions');
    expect(useFeedUi.getState().panel).toBe('myActions');
    runShellCommand('media.rotateVideo');
    runShellCommand('media.rotateVideo');
    expect(useFeedUi.getState().rotation[8]).toBe(180);
  });

  it('deletes only after the confirmation and alerts the server reason on failure', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValue(jsonResponse({ error: 'Публикация не найдена', code: 'not_found' }, 404));
    vi.stubGlobal('fetch', fetch);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderHook(() => useMediaCommands(), { wrapper });

    runShellCommand('media.deletePost');
    expect(confirm).toHaveBeenCalledWith('Вы уверены, что хотите удалить эту публикацию?');
    expect(fetch).not.toHaveBeenCalled();

    runShellCommand('media.deletePost');
    await waitFor(() =>
      expect(useToast.getState().message).toBe('Не удалось удалить публикацию: Публикация не найдена'),
    );
    expect(alert).not.toHaveBeenCalled();
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/v1/media/post/8');
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ method: 'DELETE' });
  });
});
