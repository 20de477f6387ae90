import { describe, expect, it } from 'vitest';
import { nameSpellings, planQuery, spellings, toTsquery, withSynonyms } from './plan.ts';

describe('search plan', () => {
  it('ORs a word with its synonyms and keeps synonyms out of name matching', () => {
    const plan = withSynonyms(planQuery('котики'), new Map([['котики', ['кошка', 'кот']]]));
    expect(toTsquery(plan, false)).toContain('(котики | кошка | кот)');
    expect(spellings(plan)).toContain('кошка');
    expect(nameSpellings(plan)).not.toContain('кошка');
    expect(nameSpellings(plan)).toContain('котики');
  });
});
