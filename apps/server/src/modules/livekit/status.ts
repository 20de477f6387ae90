/** Whether the media server (LiveKit) answers. */
export interface MediaServerProbe {
  url: string | null;
  status(): Promise<'ok' | 'unavailable'>;
}

/** LiveKit answers plain HTTP GET / with 200 "OK" on its signalling port. */
export function livekitProbe(url: string | null, timeoutMs = 1000): MediaServerProbe {
  const httpUrl = url ? url.replace(/^ws(s?):\/\//, 'http$1://') : null;
  return {
    url,
    async status() {
      if (!httpUrl) return 'unavailable';
      try {
        const res = await fetch(httpUrl, { signal: AbortSignal.timeout(timeoutMs) });
        return res.ok ? 'ok' : 'unavailable';
      } catch {
        return 'unavailable';
      }
    },
  };
}
