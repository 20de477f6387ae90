import { describe, expect, it } from 'vitest';
import { profileStrings } from '../../features/profile/strings.ts';
import { plural } from '../i18n/ru.ts';
import { formatLastSeen } from './last-seen.ts';

const now = Date.parse('2025-06-10T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('plural', () => {
  it.each([
    [1, 'подписчик'],
    [2, 'подписчика'],
    [4, 'подписчика'],
    [5, 'подписчиков'],
    [11, 'подписчиков'],
    [12, 'подписчиков'],
    [21, 'подписчик'],
    [22, 'подписчика'],
    [0, 'подписчиков'],
    [111, 'подписчиков'],
  ])('%i %s', (count, word) => {
    expect(plural(count, profileStrings.followers)).toBe(word);
  });
});

describe('formatLastSeen', () => {
  it('says онлайн when online or seen under 30 s ago', () => {
    expect(formatLastSeen(true, null, now)).toBe('онлайн');
    expect(formatLastSeen(false, ago(29_000), now)).toBe('онлайн');
  });

  it('counts minutes, hours and days up to 7, then shows a date', () => {
    expect(formatLastSeen(false, ago(45_000), now)).toBe('был(а) только что');
    expect(formatLastSeen(false, ago(5 * 60_000), now)).toBe('был(а) 5 минут назад');
    expect(formatLastSeen(false, ago(2 * 3_600_000), now)).toBe('был(а) 2 часа назад');
    expect(formatLastSeen(false, ago(3 * 86_400_000), now)).toBe('был(а) 3 дня назад');
    expect(formatLastSeen(false, ago(30 * 86_400_000), now)).toMatch(/^был\(а\) 11 мая 2025/);
  });

  it('is empty when nothing is known', () => {
    expect(formatLastSeen(false, null, now)).toBeNull();
  });
});
