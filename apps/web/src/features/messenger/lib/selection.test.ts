import { describe, expect, it } from 'vitest';
import { chatSwitchDirection, neighbourIndex, SELECTION_LOCK_MS, SelectionGate } from './selection.ts';

describe('selection gate', () => {
  it('ignores a selection while one is in progress, until it finishes', () => {
    let now = 1000;
    const gate = new SelectionGate(() => now);
    expect(gate.tryBegin('a')).toBe(true);
    now += 100;
    expect(gate.tryBegin('b')).toBe(false);
    expect(gate.current).toBe('a');
    gate.finish();
    expect(gate.tryBegin('b')).toBe(true);
    expect(gate.current).toBe('b');
  });

  it('releases the safety lock after 3 s even if the selection never finishes', () => {
    let now = 0;
    const gate = new SelectionGate(() => now);
    expect(SELECTION_LOCK_MS).toBe(3000);
    gate.tryBegin('a');
    now = 2999;
    expect(gate.tryBegin('b')).toBe(false);
    now = 3000;
    expect(gate.tryBegin('b')).toBe(true);
  });

  it('ignores selecting the chat already selected, and clear forgets it', () => {
    const gate = new SelectionGate(() => 0);
    gate.tryBegin('a');
    gate.finish();
    expect(gate.tryBegin('a')).toBe(false);
    gate.clear();
    expect(gate.tryBegin('a')).toBe(true);
  });
});

describe('keyboard navigation between chats', () => {
  it('moves to the neighbour and wraps at both ends', () => {
    expect(neighbourIndex(3, 0, 1)).toBe(1);
    expect(neighbourIndex(3, 2, 1)).toBe(0);
    expect(neighbourIndex(3, 0, -1)).toBe(2);
    expect(neighbourIndex(3, -1, 1)).toBe(0);
    expect(neighbourIndex(3, -1, -1)).toBe(2);
    expect(neighbourIndex(0, 0, 1)).toBe(-1);
  });

  it('reacts only to Alt+ArrowUp and Alt+ArrowDown', () => {
    const key = (k: string, altKey = true, shiftKey = false) =>
      chatSwitchDirection({ key: k, altKey, shiftKey, ctrlKey: false, metaKey: false });
    expect(key('ArrowUp')).toBe(-1);
    expect(key('ArrowDown')).toBe(1);
    expect(key('ArrowDown', false)).toBeNull();
    expect(key('ArrowDown', true, true)).toBeNull();
    expect(key('ArrowLeft')).toBeNull();
    const altDown = { key: 'ArrowDown', altKey: true, shiftKey: false, ctrlKey: false, metaKey: false };
    expect(chatSwitchDirection(altDown, true)).toBeNull();
  });
});
