import http from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode, ErrorText } from '@kadr/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Longest request address (path and query) served; anything longer answers 414 before routing. */
export const MAX_URL_LENGTH = 8192;

function raw(status: number, error: string, code: string): string {
  const body = JSON.stringify({ error, code });
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (headers past maxHeaderSize, a request
 * that timed out, bytes that are not HTTP) answers Kadr's `{ error, code }` in Russian. A request line
 * that alone fills the header budget is an address that is too long: 414, otherwise 431.
 */
export function clientErrorHandler(error: Error, socket: Duplex) {
  const err = error as NodeJS.ErrnoException & { rawPacket?: unknown };
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let answer: string;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const packet = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : null;
    const lineEnd = packet ? packet.indexOf('\r\n') : -1;
    const longLine = lineEnd === -1 || lineEnd > MAX_URL_LENGTH;
    answer = longLine
      ? raw(414, ErrorText.uriTooLong, ErrorCode.uriTooLong)
      : raw(431, ErrorText.headersTooLarge, ErrorCode.headersTooLarge);
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    answer = raw(408, ErrorText.requestTimeout, ErrorCode.requestTimeout);
  else answer = raw(400, ErrorText.malformedBody, ErrorCode.validationFailed);
  if (socket.writable) socket.write(answer);
  socket.destroy(err);
}

/** A request whose address is longer than MAX_URL_LENGTH answers 414 `{ error, code }` before routing. */
export async function refuseLongUrl(req: FastifyRequest, reply: FastifyReply) {
  if (req.raw.url && req.raw.url.length > MAX_URL_LENGTH)
    return reply.code(414).send({ error: ErrorText.uriTooLong, code: ErrorCode.uriTooLong });
}
