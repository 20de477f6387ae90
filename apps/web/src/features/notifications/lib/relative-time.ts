import { plural, ru } from '../../../shared/i18n/ru.ts';
import { formatDayMonth } from '../../../shared/lib/ru-format.ts';
import { notificationsStrings } from '../strings.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Spec §9 relative time: 'только что', minutes, hours under 24, days under 7, else a date. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const elapsed = Math.max(0, now - at);
  const T = notificationsStrings;
  if (elapsed < MINUTE) return T.justNow;
  if (elapsed < HOUR) {
    const m = Math.floor(elapsed / MINUTE);
    return T.ago(`${m} ${plural(m, ru.lastSeen.minutes)}`);
  }
  if (elapsed < DAY) {
    const h = Math.floor(elapsed / HOUR);
    return T.ago(`${h} ${plural(h, ru.lastSeen.hours)}`);
  }
  if (elapsed < 7 * DAY) {
    const d = Math.floor(elapsed / DAY);
    return T.ago(`${d} ${plural(d, ru.lastSeen.days)}`);
  }
  const date = new Date(at);
  return formatDayMonth(date, { month: 'long', year: date.getFullYear() !== new Date(now).getFullYear() });
}
