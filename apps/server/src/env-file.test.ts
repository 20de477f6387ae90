import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadEnvFile } from './env-file.ts';

it('reads a .env file without overriding variables already set, and tolerates a missing file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-env-'));
  const file = path.join(dir, '.env');
  fs.writeFileSync(file, '# comment\nPORT=4000\nLOG_LEVEL=debug\nPUBLIC_URL="https://kadr.example"\n');
  const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn' };
  expect(loadEnvFile(file, env).sort()).toEqual(['PORT', 'PUBLIC_URL']);
  expect(env).toEqual({ PORT: '4000', LOG_LEVEL: 'warn', PUBLIC_URL: 'https://kadr.example' });
  expect(loadEnvFile(path.join(dir, 'missing.env'), env)).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});
