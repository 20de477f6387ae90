import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageKeys } from '../../shared/storage/keys.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import type { ErrorRecord, LastError } from './error-log.ts';

const control = { shouldThrow: true };

function Unstable() {
  if (control.shouldThrow) throw new Error('Сломалось при отрисовке');
  return <p>Всё хорошо</p>;
}

const readJson = <T,>(key: string): T => JSON.parse(localStorage.getItem(key) ?? 'null') as T;

describe('ErrorBoundary', () => {
  beforeEach(() => {
    control.shouldThrow = true;
    // React logs caught render errors; keep the test output readable.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows the error screen with both actions when a child throws', () => {
    render(
      <ErrorBoundary>
        <Unstable />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Что-то пошло не так' })).toBeInTheDocument();
    expect(screen.getByText('Попробуйте обновить страницу')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Обновить страницу' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Попробовать снова' })).toBeInTheDocument();
  });

  it('stores lastError and a caught reactErrors record with the component stack', () => {
    render(
      <ErrorBoundary>
        <Unstable />
      </ErrorBoundary>,
    );
    const lastError = readJson<LastError>(StorageKeys.lastError);
    expect(lastError.message).toBe('Сломалось при отрисовке');
    expect(lastError.stack).toContain('Сломалось при отрисовке');
    expect(lastError.componentStack).toContain('Unstable');
    expect(Number.isNaN(Date.parse(lastError.timestamp))).toBe(false);

    const records = readJson<ErrorRecord[]>(StorageKeys.reactErrors);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ type: 'caught', message: 'Сломалось при отрисовке' });
    expect(records[0]?.componentStack).toContain('Unstable');
  });

  it('"Попробовать снова" renders the children again once they stop throwing', async () => {
    render(
      <ErrorBoundary>
        <Unstable />
      </ErrorBoundary>,
    );
    control.shouldThrow = false;
    await userEvent.click(screen.getByRole('button', { name: 'Попробовать снова' }));
    expect(screen.getByText('Всё хорошо')).toBeInTheDocument();
    expect(screen.queryByText('Что-то пошло не так')).not.toBeInTheDocument();
  });

  it('"Обновить страницу" reloads the page', async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    render(
      <ErrorBoundary>
        <Unstable />
      </ErrorBoundary>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Обновить страницу' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('"Попробовать снова" drops the cached answer the screen crashed on and asks again', async () => {
    const queryClient = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: Infinity } },
    });
    // The bad answer is in the cache already (a stale snapshot, a malformed response).
    queryClient.setQueryData(['profile'], { name: null });
    const fetchProfile = vi.fn(async () => ({ name: 'Вера' }));
    function Profile() {
      const { data } = useQuery({ queryKey: ['profile'], queryFn: fetchProfile });
      if (!data) return <p>Загрузка</p>;
      return <p>{(data as { name: string }).name.toUpperCase()}</p>;
    }
    render(
      <ErrorBoundary queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <Profile />
        </QueryClientProvider>
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Что-то пошло не так' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Попробовать снова' }));
    expect(await screen.findByText('ВЕРА')).toBeInTheDocument();
    expect(fetchProfile).toHaveBeenCalledOnce();
  });
});
