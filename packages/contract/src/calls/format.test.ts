import { describe, expect, it } from 'vitest';
import { callEntrySeenBy, callEntryText, formatCallDuration } from './format.ts';

describe('call duration as the chat entry shows it', () => {
  it('m:ss under an hour, h:mm:ss above', () => {
    expect(formatCallDuration(0)).toBe('0:00');
    expect(formatCallDuration(192)).toBe('3:12');
    expect(formatCallDuration(59.9)).toBe('0:59');
    expect(formatCallDuration(3600 + 65)).toBe('1:01:05');
    expect(formatCallDuration(-4)).toBe('0:00');
  });
});

describe('a call entry per side', () => {
  const sides = (outcome: Parameters<typeof callEntryText>[0], video: boolean, seconds = 0) => {
    const stored = callEntryText(outcome, video, seconds);
    return { caller: callEntrySeenBy(stored, true), callee: callEntrySeenBy(stored, false) };
  };

  it('an answered call is outgoing for the caller and incoming for the callee, with its duration', () => {
    expect(sides('answered', false, 192)).toEqual({
      caller: 'Исходящий звонок · 3:12',
      callee: 'Входящий звонок · 3:12',
    });
    expect(sides('answered', true, 65)).toEqual({
      caller: 'Исходящий видеозвонок · 1:05',
      callee: 'Входящий видеозвонок · 1:05',
    });
  });

  it('unanswered: the caller is told nobody answered, the callee that they missed it', () => {
    expect(sides('unanswered', false)).toEqual({
      caller: 'Исходящий звонок · нет ответа',
      callee: 'Пропущенный звонок',
    });
    expect(sides('busy', true)).toEqual({
      caller: 'Исходящий видеозвонок · занято',
      callee: 'Пропущенный видеозвонок',
    });
  });

  it('cancelled by the caller: cancelled for them, missed for the callee', () => {
    expect(sides('cancelled', false)).toEqual({ caller: 'Отменённый звонок', callee: 'Пропущенный звонок' });
    expect(sides('cancelled', true)).toEqual({
      caller: 'Отменённый видеозвонок',
      callee: 'Пропущенный видеозвонок',
    });
  });

  it('declined reads the same on both sides', () => {
    expect(sides('declined', false)).toEqual({ caller: 'Отклонённый звонок', callee: 'Отклонённый звонок' });
    expect(sides('declined', true).callee).toBe('Отклонённый видеозвонок');
  });

  it('an older entry it does not know is shown as stored', () => {
    expect(callEntrySeenBy('Пропущенный звонок', false)).toBe('Пропущенный звонок');
  });
});
