import { describe, expect, it } from 'vitest';
import { mentionedUsernames, notificationText, snippet } from './texts.ts';

const base = { name: 'Анна', others: 0, place: '' as const, snippet: '', chatTitle: null };

describe('notification texts', () => {
  it('names one actor, or the latest and how many more', () => {
    expect(notificationText({ ...base, type: 'like' })).toBe('Анна оценил(а) вашу публикацию');
    expect(notificationText({ ...base, type: 'like', others: 3 })).toBe(
      'Анна и ещё 3 оценили вашу публикацию',
    );
    expect(notificationText({ ...base, type: 'repost', others: 1 })).toBe(
      'Анна и ещё 1 сделали репост вашей публикации',
    );
  });

  it('quotes the comment and names the group of a mention', () => {
    expect(notificationText({ ...base, type: 'comment', snippet: 'Класс' })).toBe(
      'Анна прокомментировал(а) вашу публикацию: «Класс»',
    );
    expect(
      notificationText({
        ...base,
        type: 'mention',
        place: 'group',
        chatTitle: 'Друзья',
        snippet: '@bob привет',
      }),
    ).toBe('Анна упомянул(а) вас в группе «Друзья»: «@bob привет»');
  });

  it('finds @usernames, not e-mail addresses', () => {
    expect(mentionedUsernames('@Bob и @alice_1, mail a@bob.ru, @bob снова, @ab')).toEqual(['bob', 'alice_1']);
  });

  it('cuts long excerpts', () => {
    expect([...snippet('я'.repeat(100))].length).toBe(60);
    expect(snippet('  a \n b ')).toBe('a b');
  });
});
