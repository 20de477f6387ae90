import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useFeedUi } from '../../feed-ui-store.ts';
import { useMediaMode } from '../media-mode-store.ts';
import { SleepModeChip } from './SleepModeChip.tsx';

beforeEach(() => useFeedUi.setState({ interfaceHidden: false }));

describe('the sleep mode chip on the feed', () => {
  it('says sleep mode is on while it is, and turns it off in one tap', () => {
    useMediaMode.getState().setMode('sleep');
    render(<SleepModeChip />);
    expect(screen.getByRole('status')).toHaveTextContent('Режим сна включён');
    fireEvent.click(screen.getByRole('button', { name: 'Выключить режим сна' }));
    expect(useMediaMode.getState().mode).toBe('none');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows nothing when sleep mode is off', () => {
    useMediaMode.getState().setMode('none');
    render(<SleepModeChip />);
    expect(screen.queryByTestId('sleep-mode-chip')).toBeNull();
  });
});
