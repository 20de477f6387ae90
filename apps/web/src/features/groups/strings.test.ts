import { describe, expect, it } from 'vitest';
import { groupsStrings as S } from './strings.ts';

describe('group and channel counts', () => {
  it('keep the spec’s “<n> участников” and give 1 and 2–4 their own forms', () => {
    expect([0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map(S.memberCount)).toEqual([
      '0 участников',
      '1 участник',
      '2 участника',
      '4 участника',
      '5 участников',
      '11 участников',
      '12 участников',
      '14 участников',
      '21 участник',
      '22 участника',
      '25 участников',
      '101 участник',
      '111 участников',
    ]);
    expect([1, 3, 7].map(S.subscriberCount)).toEqual(['1 подписчик', '3 подписчика', '7 подписчиков']);
  });
});
