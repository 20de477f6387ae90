import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

const now = Date.parse('2026-11-24T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('relativeTime (spec §9)', () => {
  it('says только что under a minute, then minutes, hours and days', () => {
    expect(relativeTime(ago(20_000), now)).toBe('только что');
    expect(relativeTime(ago(60_000), now)).toBe('1 минуту назад');
    expect(relativeTime(ago(5 * 60_000), now)).toBe('5 минут назад');
    expect(relativeTime(ago(2 * 3600_000), now)).toBe('2 часа назад');
    expect(relativeTime(ago(23 * 3600_000), now)).toBe('23 часа назад');
    expect(relativeTime(ago(24 * 3600_000), now)).toBe('1 день назад');
    expect(relativeTime(ago(6 * 86_400_000), now)).toBe('6 дней назад');
  });

  it('gives a date from 7 days on, with the year only when it differs', () => {
    expect(relativeTime('2026-11-10T12:00:00Z', now)).toBe('10 ноября');
    expect(relativeTime('2025-03-02T12:00:00Z', now)).toBe('2 марта 2025 г.');
  });
});
