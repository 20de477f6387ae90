import type { HealthResponse } from '@kadr/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchHealth, toMediaServerStatus } from './media-server-status.ts';

const health = (status: 'ok' | 'unavailable'): HealthResponse => ({
  status: 'ok',
  database: { status: 'ok', engine: 'pglite' },
  media_server: { status, url: status === 'ok' ? 'ws://127.0.0.1:7880' : null },
  realtime: { adapter: 'memory' },
  version: '0.1.0',
  uptime_s: 1,
});

describe('media server status', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says why streams and calls are off when the media server is unavailable', () => {
    expect(toMediaServerStatus(health('unavailable'))).toEqual({
      status: 'unavailable',
      message: 'Эфиры и звонки сейчас недоступны: медиасервер не запущен',
    });
    expect(toMediaServerStatus(health('ok'))).toEqual({ status: 'ok' });
    expect(toMediaServerStatus(undefined)).toEqual({ status: 'checking' });
  });

  it('reads /api/v1/health, also when it answers 503', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(health('unavailable')), { status: 503 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(fetchHealth()).resolves.toMatchObject({ media_server: { status: 'unavailable' } });
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/health', expect.anything());
    fetchMock.mockResolvedValueOnce(new Response('gateway', { status: 502 }));
    await expect(fetchHealth()).rejects.toMatchObject({ status: 502 });
  });
});
