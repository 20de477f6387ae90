import { describe, expect, it } from 'vitest';
import { formatClock, formatCount, formatDayMonth } from './ru-format.ts';

describe('formatCount', () => {
  it.each([0, 7, 999, 1000, 1234, 12_345, 999_999, 1_000_000, 1_234_567, -5, -12_345])(
    '%i as Intl ru-RU writes it',
    (value) => {
      expect(formatCount(value)).toBe(new Intl.NumberFormat('ru-RU').format(value));
    },
  );

  it('groups with a no-break space', () => {
    expect(formatCount(12_345)).toBe('12\u00a0345');
  });
});

describe('formatClock', () => {
  it.each(['2025-01-01T00:00:00', '2025-01-01T03:04:00', '2025-06-10T12:30:59', '2025-12-31T23:59:00'])(
    '%s as Intl ru-RU writes hours and minutes',
    (iso) => {
      const at = Date.parse(iso);
      const intl = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' });
      expect(formatClock(at)).toBe(intl.format(at));
      expect(formatClock(new Date(at))).toBe(intl.format(at));
    },
  );
});

describe('formatDayMonth', () => {
  // Every month, a one- and a two-digit day, this century's years and one far back, around midnight.
  const dates = Array.from({ length: 12 }, (_, m) => [
    new Date(2026, m, 5, 0, 0),
    new Date(2025, m, 28, 23, 59),
    new Date(1999, m, 1, 12, 0),
  ]).flat();
  it.each([
    { month: 'short', year: false },
    { month: 'short', year: true },
    { month: 'long', year: false },
    { month: 'long', year: true },
  ] as const)('month $month, year $year as Intl ru-RU writes it', (options) => {
    const intl = new Intl.DateTimeFormat('ru-RU', {
      day: 'numeric',
      month: options.month,
      ...(options.year ? { year: 'numeric' } : {}),
    });
    for (const date of dates) {
      expect(formatDayMonth(date, options)).toBe(intl.format(date));
      expect(formatDayMonth(date.getTime(), options)).toBe(intl.format(date));
    }
  });
});
