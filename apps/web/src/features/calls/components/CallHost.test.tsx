import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCallStore } from '../store/call-store.ts';

/** The call's media: what the host attaches the peer's audio to. */
const media = vi.hoisted(() => ({ attachAudio: vi.fn(), attach: vi.fn() }));
vi.mock('../call-controller.ts', () => ({
  callActions: { media: () => media, dismissNotice: vi.fn() },
  browserCanEncryptCalls: () => true,
}));

const { CallHost } = await import('./CallHost.tsx');

const peer = { id: 2, username: 'boris', name: 'Борис', avatar_url: null };

describe('CallHost', () => {
  afterEach(() => {
    act(() => useCallStore.setState({ view: { status: 'idle' } }));
    media.attachAudio.mockClear();
  });

  it('creates the peer’s audio element only for a call, and gives it the call’s audio', () => {
    act(() => useCallStore.setState({ view: { status: 'idle' } }));
    render(<CallHost />);
    // Every page mounts the host: no media element while there is no call.
    expect(screen.queryByTestId('remote-audio')).toBeNull();
    expect(media.attachAudio).not.toHaveBeenCalled();

    act(() =>
      useCallStore.setState({ view: { status: 'connecting', peer, kind: 'audio', call: null as never } }),
    );
    const audio = screen.getByTestId('remote-audio');
    expect(media.attachAudio).toHaveBeenLastCalledWith(audio);

    // New tracks (the peer's audio arrived): attached again.
    act(() => useCallStore.setState((s) => ({ mediaVersion: s.mediaVersion + 1 })));
    expect(media.attachAudio).toHaveBeenCalledTimes(2);

    act(() => useCallStore.setState({ view: { status: 'idle' } }));
    expect(screen.queryByTestId('remote-audio')).toBeNull();
  });
});
