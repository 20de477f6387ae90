#!/usr/bin/env node
// Runs the whole server suite against PostgreSQL. Each test file creates its own uniquely named
// database on this server and drops it afterwards.
import { spawnSync } from 'node:child_process';

const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
console.log(`Server suite on PostgreSQL (${url.replace(/\/\/[^@]*@/, '//…@')})`);
const result = spawnSync('npx', ['vitest', 'run', '--project', 'server'], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: url },
});
process.exit(result.status ?? 1);
