import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallView } from '../store/call-store.ts';

const actions = vi.hoisted(() => ({ reject: vi.fn(async () => {}), accept: vi.fn(async () => {}) }));
/** What the browser has: WebRTC (RTCPeerConnection) and end-to-end encryption of call media. */
const browser = vi.hoisted(() => ({ calls: true, encryption: true }));
vi.mock('../call-controller.ts', () => ({
  callActions: actions,
  browserCanEncryptCalls: () => browser.encryption,
}));
vi.mock('../../../shared/livekit/webrtc-support.ts', () => ({ browserHasWebRtc: () => browser.calls }));

const { IncomingCallModal } = await import('./IncomingCallModal.tsx');

type Ringing = Extract<CallView, { status: 'ringing' }>;
const ringing = (kind: 'audio' | 'video'): Ringing => ({
  status: 'ringing',
  direction: 'incoming',
  peer: { id: 2, username: 'boris', name: 'Борис', avatar_url: null },
  kind,
  call: null,
});

/** A page behind the modal; rejecting (what Escape does) takes the modal away, as the call store would. */
function Page({ kind }: { kind: 'audio' | 'video' }) {
  const [ringingNow, setRinging] = useState(false);
  actions.reject.mockImplementation(async () => setRinging(false));
  return (
    <>
      <main>
        <button type="button" onClick={() => setRinging(true)}>
          Открыть
        </button>
      </main>
      {ringingNow ? <IncomingCallModal view={ringing(kind)} /> : null}
    </>
  );
}

describe('IncomingCallModal on the shared sheet', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    browser.calls = true;
    browser.encryption = true;
  });

  it('is a modal alertdialog named by the caller, focus on accept, the page inert', async () => {
    render(<Page kind="video" />);
    await userEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Борис' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('Входящий видеозвонок');
    expect(screen.getByRole('button', { name: 'Ответить с видео' })).toHaveFocus();
    expect(screen.getByRole('main')).toHaveProperty('inert', true);
  });

  it('Escape rejects the call, the modal goes and focus returns to where it was', async () => {
    render(<Page kind="audio" />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);
    expect(screen.getByRole('button', { name: 'Ответить без видео' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(actions.reject).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveProperty('inert', false);
    expect(opener).toHaveFocus();
  });

  it('a click beside the modal does not reject the call', async () => {
    render(<Page kind="audio" />);
    await userEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    const backdrop = screen.getByRole('alertdialog').previousElementSibling as HTMLElement;
    await userEvent.click(backdrop);
    expect(actions.reject).not.toHaveBeenCalled();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('without WebRTC it says the call cannot be answered here and offers only «Отклонить»', async () => {
    browser.calls = false;
    browser.encryption = false;
    render(<Page kind="video" />);
    await userEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    expect(screen.getByRole('note')).toHaveTextContent(
      'Этот браузер не поддерживает звонки (в нём нет WebRTC). Откройте Kadr в другом браузере',
    );
    expect(screen.queryByRole('button', { name: 'Ответить с видео' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ответить без видео' })).not.toBeInTheDocument();
    const reject = screen.getByRole('button', { name: 'Отклонить' });
    expect(reject).toHaveFocus();
    await userEvent.click(reject);
    expect(actions.reject).toHaveBeenCalledTimes(1);
  });
});
