import { ru } from '../i18n/ru.ts';

/**
 * The formats the first screens need, written out instead of built with `Intl`: the first `Intl`
 * formatter of a page loads its locale data, 100–270 ms at Lighthouse's 4x CPU (the first
 * `Intl.DateTimeFormat` alone 12–14 ms unthrottled, in the task that renders the list). Each gives
 * exactly what `Intl` gives for 'ru-RU' (the tests compare them).
 */

/** An integer as `new Intl.NumberFormat('ru-RU')` writes it: groups of three split by a no-break space. */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value)) return new Intl.NumberFormat('ru-RU').format(value);
  const digits = String(Math.abs(value));
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3) {
    const part = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped ? `${part}\u00a0${grouped}` : part;
  }
  return value < 0 ? `-${grouped}` : grouped;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Local hours and minutes as `{ hour: '2-digit', minute: '2-digit' }` in 'ru-RU' writes them: '09:05'. */
export function formatClock(at: number | Date): string {
  const date = typeof at === 'number' ? new Date(at) : at;
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const MONTHS = { short: ru.dates.monthsShort, long: ru.dates.monthsLong } as const;

/**
 * A local date as `{ day: 'numeric', month, year?: 'numeric' }` in 'ru-RU' writes it: '5 дек.',
 * '5 декабря', '5 декабря 2026 г.'.
 */
export function formatDayMonth(
  at: number | Date,
  { month, year = false }: { month: 'short' | 'long'; year?: boolean },
): string {
  const date = typeof at === 'number' ? new Date(at) : at;
  const day = `${date.getDate()} ${MONTHS[month][date.getMonth()]}`;
  return year ? ru.dates.withYear(day, date.getFullYear()) : day;
}
