import { formatDayMonth } from '../../../shared/lib/ru-format.ts';
import { mediaStrings } from '../strings.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const ages = mediaStrings.commentAge;

/**
 * A comment's age as Instagram shows it beside the author: «сейчас», «5 мин», «3 ч», «2 д», «4 нед», then
 * the date (with the year once it is not this year's).
 */
export function commentTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const age = Math.max(0, now - at);
  if (age < MINUTE) return ages.now;
  if (age < HOUR) return ages.minutes(Math.floor(age / MINUTE));
  if (age < DAY) return ages.hours(Math.floor(age / HOUR));
  if (age < WEEK) return ages.days(Math.floor(age / DAY));
  if (age < 5 * WEEK) return ages.weeks(Math.floor(age / WEEK));
  return formatDayMonth(at, {
    month: 'short',
    year: new Date(at).getFullYear() !== new Date(now).getFullYear(),
  });
}
