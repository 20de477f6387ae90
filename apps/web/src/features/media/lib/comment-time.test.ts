import { describe, expect, it } from 'vitest';
import { commentTime } from './comment-time.ts';

const now = Date.parse('2026-06-15T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('a comment’s time', () => {
  it('counts minutes, hours, days and weeks, then shows the date', () => {
    expect(commentTime(ago(20_000), now)).toBe('сейчас');
    expect(commentTime(ago(5 * 60_000), now)).toBe('5 мин');
    expect(commentTime(ago(3 * 3_600_000), now)).toBe('3 ч');
    expect(commentTime(ago(2 * 86_400_000), now)).toBe('2 д');
    expect(commentTime(ago(15 * 86_400_000), now)).toBe('2 нед');
    expect(commentTime('2026-03-08T10:00:00.000Z', now)).toBe('8 мар.');
    expect(commentTime('2024-03-08T10:00:00.000Z', now)).toBe('8 мар. 2024 г.');
  });

  it('shows nothing for a time it cannot read', () => {
    expect(commentTime('вчера', now)).toBe('');
  });
});
