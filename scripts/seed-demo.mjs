#!/usr/bin/env node
// `npm run seed:demo`: demo people, real photographs and clips, likes, comments, stories and chats
// (scripts/seed-demo.ts; the same job as «Добавить демо-контент»). Uses the same DATA_DIR / DATABASE_URL as `npm start`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/seed-demo.ts')], {
  stdio: 'inherit',
  cwd: root,
  env: process.env,
});
process.exit(result.status ?? 1);
