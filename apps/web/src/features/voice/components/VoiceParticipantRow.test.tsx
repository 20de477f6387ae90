import type { VoiceParticipant } from '@kadr/contract';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { voiceStrings as t } from '../strings.ts';
import { VoiceParticipantRow } from './VoiceParticipantRow.tsx';

vi.mock('./Voice.module.css', async () => {
  const { fileURLToPath } = await import('node:url');
  const { cssModuleClasses } = await import('../../../test/css-module.ts');
  return { default: cssModuleClasses(fileURLToPath(import.meta.resolve('./Voice.module.css'))) };
});

const anna: VoiceParticipant = {
  user_id: 7,
  username: 'anna',
  name: 'Анна',
  avatar_url: null,
  joined_at: '2026-01-01T00:00:00.000Z',
  hand_raised_at: null,
};

function row(props: Partial<Parameters<typeof VoiceParticipantRow>[0]> = {}) {
  const onLowerHand = vi.fn();
  const { unmount } = render(
    <ul>
      <VoiceParticipantRow
        participant={anna}
        speaking={false}
        muted={false}
        canLowerHand={false}
        inboundBytes={0}
        onLowerHand={onLowerHand}
        {...props}
      />
    </ul>,
  );
  return { item: screen.getByRole('listitem'), onLowerHand, unmount };
}

describe('a voice chat participant row', () => {
  it('shows who is speaking: the ring on the avatar and the word', () => {
    const { item } = row({ speaking: true });
    expect(screen.getByTestId('voice-speaking')).toHaveTextContent(t.speaking);
    expect(item).toHaveAttribute('data-speaking', 'true');
    expect(item.querySelector('.avatar')).toHaveClass('speaking');
    expect(screen.queryByRole('img', { name: t.muted })).toBeNull();
  });

  it('someone quiet shows neither', () => {
    const { item } = row();
    expect(item).toHaveTextContent('Анна');
    expect(item).not.toHaveTextContent(t.speaking);
    expect(item).toHaveAttribute('data-speaking', 'false');
    expect(item.querySelector('.avatar')).not.toHaveClass('speaking');
  });

  it('a muted microphone is marked, and wins over a speaking report that trails the mute', () => {
    const { item } = row({ muted: true, speaking: true });
    expect(screen.getByRole('img', { name: t.muted })).toBeInTheDocument();
    expect(item).toHaveAttribute('data-muted', 'true');
    expect(item).toHaveAttribute('data-speaking', 'false');
    expect(item).not.toHaveTextContent(t.speaking);
    expect(item.querySelector('.avatar')).not.toHaveClass('speaking');
  });

  it('a raised hand: a mark for everyone, a button to lower it for those running the chat', () => {
    const raised = { ...anna, hand_raised_at: '2026-01-01T00:01:00.000Z' };
    const first = row({ participant: raised });
    expect(screen.getByRole('img', { name: t.handRaised })).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    first.unmount();

    const { onLowerHand } = row({ participant: raised, canLowerHand: true });
    fireEvent.click(screen.getByRole('button', { name: t.lowerHandOf('Анна') }));
    expect(onLowerHand).toHaveBeenCalledOnce();
  });
});
