import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';
import { stubbedApp } from '../../../test/query-harness.tsx';
import { ModeratorEndStream } from './ModeratorEndStream.tsx';

/** The live screen's moderator button: only a moderator sees it, and it ends the stream through the server. */
function mount(isModerator: boolean) {
  const app = stubbedApp((url) => {
    if (url.endsWith('/moderation/me')) return jsonResponse({ is_moderator: isModerator });
    if (url.endsWith('/moderation/streams/42/end')) return jsonResponse({ ended: true });
    return jsonResponse({ error: 'нет', code: 'not_found' }, 404);
  });
  render(<ModeratorEndStream streamId={42} />, { wrapper: app.wrapper });
  return app;
}

const endCalls = (urls: string[]) => urls.filter((u) => u.endsWith('/moderation/streams/42/end'));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('«Завершить эфир (модератор)»', () => {
  it('is not shown to someone who does not moderate', async () => {
    const app = mount(false);
    await waitFor(() => expect(app.urls().some((u) => u.endsWith('/moderation/me'))).toBe(true));
    // Give the answer a turn to render.
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByRole('button', { name: 'Завершить эфир (модератор)' })).not.toBeInTheDocument();
  });

  it('ends the stream for a moderator after asking, and does nothing when they decline', async () => {
    const app = mount(true);
    const button = await screen.findByRole('button', { name: 'Завершить эфир (модератор)' });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await userEvent.click(button);
    expect(confirm).toHaveBeenCalledWith('Завершить этот эфир для всех зрителей?');
    expect(endCalls(app.urls())).toHaveLength(0);
    await userEvent.click(button);
    await waitFor(() => expect(endCalls(app.urls())).toHaveLength(1));
    const call = app.fetchMock.mock.calls.find(([u]) => String(u).endsWith('/streams/42/end')) as unknown as [
      string,
      RequestInit,
    ];
    expect(call[1].method).toBe('POST');
  });
});
