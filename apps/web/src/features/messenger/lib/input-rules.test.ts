import { describe, expect, it } from 'vitest';
import {
  canSend,
  enterAction,
  INPUT_MAX_HEIGHT,
  inputHeight,
  isMobileInput,
  pastedFiles,
} from './input-rules.ts';

const desktopUa = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140 Safari/537.36';
const phoneUa = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';

describe('message input rules', () => {
  it('treats a mobile user agent or a width under 768 as mobile', () => {
    expect(isMobileInput(desktopUa, 1280)).toBe(false);
    expect(isMobileInput(desktopUa, 768)).toBe(false);
    expect(isMobileInput(desktopUa, 767)).toBe(true);
    expect(isMobileInput(phoneUa, 1280)).toBe(true);
  });

  it('sends on Enter on desktop, inserts a newline with Shift or on mobile', () => {
    expect(enterAction({ key: 'Enter', shiftKey: false }, false)).toBe('send');
    expect(enterAction({ key: 'Enter', shiftKey: true }, false)).toBe('newline');
    expect(enterAction({ key: 'Enter', shiftKey: false }, true)).toBe('newline');
    expect(enterAction({ key: 'Enter', shiftKey: false, isComposing: true }, false)).toBeNull();
    expect(enterAction({ key: 'a', shiftKey: false }, false)).toBeNull();
  });

  it('with "Enter sends" off, Enter breaks the line and Ctrl or Cmd+Enter sends (desktop only)', () => {
    expect(enterAction({ key: 'Enter', shiftKey: false }, false, false)).toBe('newline');
    expect(enterAction({ key: 'Enter', shiftKey: true }, false, false)).toBe('newline');
    expect(enterAction({ key: 'Enter', shiftKey: false, ctrlKey: true }, false, false)).toBe('send');
    expect(enterAction({ key: 'Enter', shiftKey: false, metaKey: true }, false, false)).toBe('send');
    expect(enterAction({ key: 'Enter', shiftKey: false, ctrlKey: true }, true, false)).toBe('newline');
    expect(enterAction({ key: 'Enter', shiftKey: false }, false, true)).toBe('send');
  });

  it('needs non-empty trimmed text or a file, and a chat', () => {
    expect(canSend('  \n ', false, true)).toBe(false);
    expect(canSend(' привет ', false, true)).toBe(true);
    expect(canSend('', true, true)).toBe(true);
    expect(canSend('привет', false, false)).toBe(false);
  });

  it('grows up to 150 px', () => {
    expect(INPUT_MAX_HEIGHT).toBe(150);
    expect(inputHeight(40)).toBe(40);
    expect(inputHeight(400)).toBe(150);
  });

  it('takes the files of a paste', () => {
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const items = [
      { kind: 'string', getAsFile: () => null },
      { kind: 'file', getAsFile: () => file },
    ];
    expect(pastedFiles(items)).toEqual([file]);
  });
});
