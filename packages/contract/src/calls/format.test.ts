import { describe, expect, it } from 'vitest';
import { formatCallDuration } from './format.ts';

describe('call duration as the chat entry shows it', () => {
  it('m:ss under an hour, h:mm:ss above', () => {
    expect(formatCallDuration(0)).toBe('0:00');
    expect(formatCallDuration(192)).toBe('3:12');
    expect(formatCallDuration(59.9)).toBe('0:59');
    expect(formatCallDuration(3600 + 65)).toBe('1:01:05');
    expect(formatCallDuration(-4)).toBe('0:00');
  });
});
