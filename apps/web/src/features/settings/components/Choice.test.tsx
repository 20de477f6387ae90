import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Choice, Toggle } from './SettingsSections.tsx';

const options = [
  { value: 'everyone', label: 'Все' },
  { value: 'nobody', label: 'Никто' },
] as const;

type Value = (typeof options)[number]['value'];

/** Settings whose write lands later (an optimistic update a tick away), or is refused and rolled back. */
function Later() {
  const [value, setValue] = useState<Value>('everyone');
  const [on, setOn] = useState(false);
  return (
    <>
      <Choice legend="Кто" name="who" value={value} options={options} onChange={() => undefined} />
      <Toggle label="Закрытый" checked={on} onChange={() => undefined} />
      <button type="button" onClick={() => setValue('nobody')}>
        land
      </button>
      <button type="button" onClick={() => setOn(true)}>
        land-toggle
      </button>
      <button type="button" onClick={() => setValue('everyone')}>
        rollback
      </button>
    </>
  );
}

describe('settings controls', () => {
  it('a radio shows the pick at once, before the settings re-render, then follows the settings', () => {
    render(<Later />);
    const nobody = screen.getByRole('radio', { name: 'Никто' });
    fireEvent.click(nobody);
    expect(nobody).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Все' })).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'land' }));
    expect(nobody).toBeChecked();
  });

  it('a switch shows the flip at once', () => {
    render(<Later />);
    const toggle = screen.getByRole('switch', { name: 'Закрытый' });
    fireEvent.click(toggle);
    expect(toggle).toBeChecked();
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'land-toggle' }));
    expect(toggle).toBeChecked();
  });

  it('once the settings change (the optimistic write), a later rollback shows the settings, not the old pick', () => {
    render(<Later />);
    fireEvent.click(screen.getByRole('radio', { name: 'Никто' }));
    fireEvent.click(screen.getByRole('button', { name: 'land' }));
    // The server refused: the settings go back to «Все», and so does the radio.
    fireEvent.click(screen.getByRole('button', { name: 'rollback' }));
    expect(screen.getByRole('radio', { name: 'Все' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Никто' })).not.toBeChecked();
  });
});
