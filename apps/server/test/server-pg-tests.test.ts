import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testsLeftOutOnPostgres } from '../../../scripts/server-pg-tests.mjs';

describe('the PostgreSQL run', () => {
  const { total, left } = testsLeftOutOnPostgres(path.resolve(import.meta.dirname, '..'));
  const files = left.map((l) => l.file);

  it('leaves out the files that open no database and those marked embedded-only', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'test/tagger-eval.test.ts',
        'test/web-bundle.test.ts',
        'test/shape.test.ts',
        'src/lib/rate-limiter.test.ts',
        'test/data-dir-lock.test.ts',
      ]),
    );
    expect(left.find((l) => l.file === 'test/data-dir-lock.test.ts')?.why).toBe('embedded only');
  });

  it('keeps every file that opens a database, directly or through a test helper', () => {
    for (const kept of [
      'test/messenger-chats.test.ts',
      'test/search-eval.test.ts',
      // Through media-helpers.ts, which starts an app.
      'test/media-labeler-process.test.ts',
      'test/start-memory.test.ts',
      'src/db/database.test.ts',
    ])
      expect(files, kept).not.toContain(kept);
    expect(total - left.length).toBeGreaterThan(90);
  });
});
