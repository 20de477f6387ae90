import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveStreamOf } from '../../../test/fixtures.ts';
import type { LiveSession } from '../lib/use-live-session.ts';
import { useLiveUi } from '../live-store.ts';
import { GuestStage } from './LiveStreamScreen.tsx';

const ME = 5;

/** A viewer's session in a connected room that allows publishing (what the host's invitation grants). */
function sessionOf(publishMicrophone = vi.fn(async () => {})): LiveSession {
  const room = {
    livekitRoom: {
      localParticipant: { permissions: { canPublish: true }, audioTrackPublications: new Map() },
    },
    publishMicrophone,
    setMicrophoneEnabled: vi.fn(async () => {}),
  };
  return { role: 'viewer', room } as unknown as LiveSession;
}

/** The invitation arrives while a control of the stream screen has focus. */
function Page({ session }: { session: LiveSession }) {
  const [shown, setShown] = useState(false);
  return (
    <>
      <main>
        <button type="button" onClick={() => setShown(true)}>
          Чат эфира
        </button>
      </main>
      {shown ? <GuestStage session={session} stream={liveStreamOf([ME])} meId={ME} /> : null}
    </>
  );
}

afterEach(() => useLiveUi.setState({ invitation: null }));

describe('the live guest invitation on the shared sheet', () => {
  it('is a modal dialog; Escape declines it, the page is live again and focus returns', async () => {
    useLiveUi.getState().invite(7);
    render(<Page session={sessionOf()} />);
    const before = screen.getByRole('button', { name: 'Чат эфира' });
    await userEvent.click(before);
    const dialog = screen.getByRole('dialog', { name: 'Вас пригласили выступить в эфире' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(screen.getByRole('main')).toHaveProperty('inert', true);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(useLiveUi.getState().invitation).toBeNull();
    expect(screen.getByRole('main')).toHaveProperty('inert', false);
    expect(before).toHaveFocus();
  });

  it('«Включить микрофон» publishes the microphone and puts the guest on air', async () => {
    useLiveUi.getState().invite(7);
    const publish = vi.fn(async () => {});
    render(<Page session={sessionOf(publish)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Чат эфира' }));
    const dialog = screen.getByRole('dialog', { name: 'Вас пригласили выступить в эфире' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Включить микрофон' }));
    expect(await screen.findByRole('region', { name: 'Вы в эфире с микрофоном' })).toBeInTheDocument();
    expect(publish).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('tells a guest the host took off the stage, once, until invited again', async () => {
    const session = sessionOf();
    const { rerender } = render(<GuestStage session={session} stream={liveStreamOf([ME])} meId={ME} />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    rerender(<GuestStage session={session} stream={liveStreamOf([])} meId={ME} />);
    expect(screen.getByRole('status')).toHaveTextContent('Автор эфира убрал вас со сцены');
    // A viewer who never was a guest is told nothing.
    const { container } = render(<GuestStage session={session} stream={liveStreamOf([])} meId={ME + 1} />);
    expect(container).toBeEmptyDOMElement();
    // Invited again: the notice goes.
    rerender(<GuestStage session={session} stream={liveStreamOf([ME])} meId={ME} />);
    expect(screen.queryByText('Автор эфира убрал вас со сцены')).not.toBeInTheDocument();
  });
});
