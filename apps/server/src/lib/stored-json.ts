import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Encoding = 'br' | 'gzip';

/** Bodies below this go out as they are: the API scope's `@fastify/compress` threshold. */
export const COMPRESS_THRESHOLD = 1024;

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
 * the same page again; the settings are the API scope's `@fastify/compress` ones.
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

/** A route's answer as JSON bytes already serialized (by the route's own serializer, when it was built). */
export function sendJson<R>(reply: R, body: Buffer): R {
  return (reply as FastifyReply).type('application/json; charset=utf-8').send(body) as R;
}

/**
 * Hot first pages kept as the bytes sent (stories strip, chat list): a stored body goes out as is, or
 * its stored brotli/gzip copy when the client accepts one and the body is worth compressing.
 */
export function storedJson() {
  const encoded = encodedBodies();
  return <R>(req: FastifyRequest, reply: R, body: Buffer): R => {
    const encoding =
      body.length < COMPRESS_THRESHOLD ? null : preferredEncoding(req.headers['accept-encoding']);
    if (!encoding) return sendJson(reply, body);
    // Already encoded: @fastify/compress passes bytes with a Content-Encoding through.
    (reply as FastifyReply).header('content-encoding', encoding).header('vary', 'accept-encoding');
    return sendJson(reply, encoded(body, encoding));
  };
}

/** A reply's serialization of `payload` (the route's response schema) as bytes to store. */
export function serializedJson(reply: FastifyReply, payload: unknown): Buffer {
  const json = reply.serialize(payload);
  return typeof json === 'string' ? Buffer.from(json) : Buffer.from(json as ArrayBuffer);
}
