import zlib from 'node:zlib';

type Encoding = 'br' | 'gzip';

/** The encoding to answer with: brotli, else gzip, when the client accepts it (q=0 refuses). */
export function preferredEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * Compressed copies of cached JSON bodies, made once per body on its first hit and dropped with it (the
 * cache's Buffer is the key). With them a hit for a browser sends stored bytes instead of compressing
 * 28 KB again; the settings are the API scope's `@fastify/compress` ones.
 */
export function encodedBodies() {
  const variants = new WeakMap<Buffer, Partial<Record<Encoding, Buffer>>>();
  return (body: Buffer, encoding: Encoding): Buffer => {
    let known = variants.get(body);
    if (!known) {
      known = {};
      variants.set(body, known);
    }
    const done = known[encoding];
    if (done) return done;
    const made =
      encoding === 'br'
        ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
        : zlib.gzipSync(body, { level: 6 });
    known[encoding] = made;
    return made;
  };
}
