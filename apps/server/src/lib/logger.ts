import pino, { type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import type { Config } from '../config.ts';

/**
 * The one logger of a server process (main.ts): Fastify logs through it, and so do the lines of the embedded
 * LiveKit. For people (LOG_FORMAT=pretty, the default) a line per entry — time, level, message, fields —
 * formatted in this process (pino-pretty as a stream, not a transport: no worker thread and its memory); for
 * a collector (LOG_FORMAT=json) pino's JSON lines.
 */
export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  destination: NodeJS.WritableStream = process.stdout,
): Logger {
  const options = { level: config.logLevel, redact: ['req.headers.authorization'] };
  if (config.logFormat === 'json') return pino(options, destination as pino.DestinationStream);
  const pretty = pinoPretty({
    destination,
    sync: true,
    colorize: Boolean((destination as { isTTY?: boolean }).isTTY),
    translateTime: 'HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return pino(options, pretty);
}
