import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';

/**
 * A test's app around hooks and components: `fetch` answered by `answer(url)` (recorded), a fresh query client
 * without retries, and a router. The caller restores `fetch` with `vi.unstubAllGlobals()`.
 */
export function stubbedApp(answer: (url: string) => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => answer(String(input)));
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>{children}</MemoryRouter>
    </QueryClientProvider>
  );
  const urls = () => fetchMock.mock.calls.map(([input]) => String(input));
  return { fetchMock, queryClient, wrapper, urls };
}
