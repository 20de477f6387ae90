import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialCallStore, useCallStore } from '../store/call-store.ts';

const actions = vi.hoisted(() => ({
  flipCamera: vi.fn(async () => {}),
  media: vi.fn(() => null),
  setMinimised: vi.fn(),
  toggleMicrophone: vi.fn(async () => {}),
  toggleCamera: vi.fn(async () => {}),
  end: vi.fn(async () => {}),
}));
vi.mock('../call-controller.ts', () => ({ callActions: actions }));
const { CallWindow } = await import('./CallWindow.tsx');

const peer = { id: 2, username: 'boris', name: 'Борис', avatar_url: null };
const stop = vi.fn();
const stream = { getTracks: () => [{ stop }] } as unknown as MediaStream;

function devices(cameras: number) {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: vi.fn(async () => stream),
      enumerateDevices: vi.fn(async () =>
        Array.from({ length: cameras }, (_, i) => ({ kind: 'videoinput', deviceId: `cam${i}` })),
      ),
    },
  });
}

beforeEach(() => {
  vi.clearAllMocks();
  useCallStore.setState({ ...initialCallStore, cameraEnabled: true });
});
afterEach(() => {
  delete (navigator as { mediaDevices?: unknown }).mediaDevices;
});

describe('the call window of a video call', () => {
  it('shows the caller their own camera while it rings out, and stops it once the call moves on', async () => {
    devices(1);
    const { rerender } = render(
      <CallWindow view={{ status: 'ringing', direction: 'outgoing', peer, kind: 'video', call: null }} />,
    );
    const preview = (await screen.findByTestId('local-preview')) as HTMLVideoElement;
    await waitFor(() => expect(preview.srcObject).toBe(stream));
    expect(navigator.mediaDevices.getUserMedia).toHaveBeenCalledWith({
      video: { facingMode: 'user' },
      audio: false,
    });
    rerender(<CallWindow view={{ status: 'rejected', peer, kind: 'video', call: null } as never} />);
    expect(screen.queryByTestId('local-preview')).toBeNull();
    expect(stop).toHaveBeenCalled();
  });

  it('offers «Сменить камеру» only on a device with more than one camera', async () => {
    devices(2);
    const view = {
      status: 'ringing' as const,
      direction: 'outgoing' as const,
      peer,
      kind: 'video' as const,
      call: null,
    };
    const { unmount } = render(<CallWindow view={view} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Сменить камеру' }));
    expect(actions.flipCamera).toHaveBeenCalledOnce();
    unmount();
    devices(1);
    render(<CallWindow view={view} />);
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.queryByRole('button', { name: 'Сменить камеру' })).toBeNull();
  });
});
