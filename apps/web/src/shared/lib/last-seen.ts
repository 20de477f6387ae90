import { Limits } from '@kadr/contract/browser';
import { plural, ru } from '../i18n/ru.ts';
import { formatDayMonth } from './ru-format.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Last-seen wording (spec §9): 'онлайн' when online or seen under 30 s ago, then minutes, hours,
 * days up to 7, then a date. Null when nothing is known.
 */
export function formatLastSeen(
  online: boolean,
  lastSeen: string | null,
  now: number = Date.now(),
): string | null {
  if (online) return ru.lastSeen.online;
  if (!lastSeen) return null;
  const at = Date.parse(lastSeen);
  if (Number.isNaN(at)) return null;
  const elapsed = Math.max(0, now - at);
  if (elapsed < Limits.onlineWindowMs) return ru.lastSeen.online;
  if (elapsed < MINUTE) return ru.lastSeen.justNow;
  if (elapsed < HOUR) {
    const minutes = Math.floor(elapsed / MINUTE);
    return ru.lastSeen.ago(`${minutes} ${plural(minutes, ru.lastSeen.minutes)}`);
  }
  if (elapsed < DAY) {
    const hours = Math.floor(elapsed / HOUR);
    return ru.lastSeen.ago(`${hours} ${plural(hours, ru.lastSeen.hours)}`);
  }
  if (elapsed <= 7 * DAY) {
    const days = Math.floor(elapsed / DAY);
    return ru.lastSeen.ago(`${days} ${plural(days, ru.lastSeen.days)}`);
  }
  return ru.lastSeen.onDate(formatDayMonth(at, { month: 'long', year: true }));
}
