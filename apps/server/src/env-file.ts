import fs from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * Reads `KEY=value` lines from a `.env` file into `env`, never overriding a variable that is already
 * set (the real environment wins). A missing file is fine: everything has a default.
 */
export function loadEnvFile(file: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (!fs.existsSync(file)) return [];
  const values = parseEnv(fs.readFileSync(file, 'utf8'));
  const applied: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (env[key] !== undefined) continue;
    env[key] = value;
    applied.push(key);
  }
  return applied;
}
