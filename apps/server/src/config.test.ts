import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to the embedded setup on port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      redisUrl: null,
      publicUrl: 'http://localhost:3000',
      redisPrefix: 'kadr',
    });
    expect(path.basename(config.dataDir)).toBe('data');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer'],
    [{ PORT: '70000' }, 'PORT must be an integer between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must use one of postgres, postgresql'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL must be a URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ LIVEKIT_URL: 'ws://127.0.0.1:7880' }, 'LIVEKIT_API_KEY and LIVEKIT_API_SECRET must be set'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY must be true or false'],
    [{ REDIS_PREFIX: 'has space' }, 'REDIS_PREFIX must be'],
    [{ MEDIA_SCHEDULING: 'idel' }, 'MEDIA_SCHEDULING must be one of idle, nice, none'],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads the scale-out settings', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db/kadr',
      REDIS_URL: 'redis://cache:6379',
      PUBLIC_URL: 'https://kadr.example',
      PORT: '8080',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://u@db/kadr',
      redisUrl: 'redis://cache:6379',
      publicUrl: 'https://kadr.example',
      port: 8080,
    });
  });
});
