import { afterAll, vi } from 'vitest';

/**
 * Runs before each test file. Files share a worker process (`isolate: false` in vitest.config.ts), so each one
 * starts from the server's modules fresh, as in an isolated run (packages stay loaded: they keep no state of
 * ours), and whatever it changed in the environment is put back when it ends.
 */
vi.resetModules();
const env = { ...process.env };
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
});
