import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex, solveChallenge } from './pow-solver.ts';

const reference = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the login challenge solver', () => {
  it('computes SHA-256 like the server, for inputs of one and of several blocks', () => {
    for (const text of [
      '',
      'abc',
      'x'.repeat(55),
      'y'.repeat(56),
      'z'.repeat(64),
      `${'токен.'.repeat(30)}:123`,
    ])
      expect(sha256Hex(text)).toBe(reference(text));
  });

  it('finds a nonce whose digest has the asked number of leading zero bits', async () => {
    const token = 'eyJ1IjoiYW5uYSJ9.c2lnbmF0dXJl';
    const nonce = await solveChallenge({ token, difficulty: 12 });
    const digest = createHash('sha256').update(`${token}:${nonce}`).digest();
    expect(digest[0]).toBe(0);
    expect((digest[1] as number) >> 4).toBe(0);
  });
});
