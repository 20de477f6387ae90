import { AsyncLocalStorage } from 'node:async_hooks';
import { PAGE_HEADER } from '@kadr/contract';
import type { FastifyInstance } from 'fastify';

/** A page's id as the web app makes it (a random UUID); anything else is no page. */
const PAGE_ID = /^[A-Za-z0-9_-]{8,64}$/;

export function isPageId(value: unknown): value is string {
  return typeof value === 'string' && PAGE_ID.test(value);
}

/** The page whose request is being handled, through everything the handler starts. */
const causes = new AsyncLocalStorage<string>();

/** The page (its `X-Kadr-Page` header) whose write is being handled; undefined outside a request or without one. */
export function causingPage(): string | undefined {
  return causes.getStore();
}

/**
 * A write names its page (`X-Kadr-Page`), so the events it causes are known as that page's own: its first
 * socket connection is not told of them (`missed`), since the page already shows what it did.
 */
export function registerPageCause(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const page = request.headers[PAGE_HEADER.toLowerCase()];
    if (isPageId(page)) causes.run(page, done);
    else done();
  });
}
