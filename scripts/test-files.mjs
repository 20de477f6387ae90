// The test files under a folder, for the configs and scripts that sort them (apps/server and apps/web vitest.projects.ts,
// scripts/server-pg-tests.mjs): every file whose name matches, outside node_modules and fixtures folders.
import fs from 'node:fs';
import path from 'node:path';

/** Absolute paths of the files under `dir` whose names match `pattern` (default: `*.test.ts`). */
export function testFiles(dir, pattern = /\.test\.ts$/) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'fixtures') return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full, pattern);
    return pattern.test(entry.name) ? [full] : [];
  });
}
