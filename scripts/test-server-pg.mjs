#!/usr/bin/env node
// Runs the server suite against PostgreSQL. Each test file creates its own uniquely named database on this
// server and drops it afterwards. The files that would run unchanged here (they open no database, or only
// the embedded one) are left out: `npm test` runs them (scripts/server-pg-tests.mjs says which and why).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { testsLeftOutOnPostgres } from './server-pg-tests.mjs';

const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const { total, left } = testsLeftOutOnPostgres(path.resolve(import.meta.dirname, '../apps/server'));
console.log(`Server suite on PostgreSQL (${url.replace(/\/\/[^@]*@/, '//…@')})`);
console.log(
  `${total - left.length} of ${total} files; left out (run by npm test): ${left.filter((l) => l.why === 'no database').length} that open no database, ${left
    .filter((l) => l.why === 'embedded only')
    .map((l) => l.file)
    .join(', ')} (embedded database only)`,
);
const result = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--project',
    'server',
    '--project',
    'server-isolated',
    ...left.flatMap((l) => ['--exclude', `**/${l.file}`]),
  ],
  { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } },
);
process.exit(result.status ?? 1);
