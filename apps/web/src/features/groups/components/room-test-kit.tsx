import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { jsonResponse } from '../../../test/fixtures.ts';

/** One answer per "METHOD /path" (query string ignored); a function answers from the request body. */
export type Routes = Record<string, unknown | ((body: unknown) => Response | unknown)>;

/** A fetch stub that answers the routes table and records every call as `METHOD /path` plus its body. */
export function stubApi(routes: Routes) {
  const calls: { route: string; body: unknown }[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const route = `${init?.method ?? 'GET'} ${url.pathname.replace(/^\/api\/v1/, '')}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ route, body });
    if (!(route in routes))
      return jsonResponse({ error: 'no such route in the stub', code: 'not_found' }, 404);
    const answer = routes[route];
    const value = typeof answer === 'function' ? answer(body) : answer;
    return value instanceof Response ? value : jsonResponse(value);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, called: (route: string) => calls.filter((c) => c.route === route) };
}

export function renderWithQuery(ui: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
}
