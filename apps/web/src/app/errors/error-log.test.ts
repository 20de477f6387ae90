import { afterEach, describe, expect, it } from 'vitest';
import { StorageKeys } from '../../shared/storage/keys.ts';
import {
  type ErrorRecord,
  installGlobalErrorHandlers,
  isResizeObserverLoopError,
  readErrorRecords,
  recordError,
  recordRenderCrash,
} from './error-log.ts';

let uninstall: (() => void) | undefined;
afterEach(() => {
  uninstall?.();
  uninstall = undefined;
});

describe('error records', () => {
  it('keeps only the newest 10 records', () => {
    for (let i = 1; i <= 13; i += 1) recordError('caught', new Error(`ошибка ${i}`));
    const records = readErrorRecords();
    expect(records).toHaveLength(10);
    expect(records[0]?.message).toBe('ошибка 4');
    expect(records[9]?.message).toBe('ошибка 13');
  });

  it('records every field of a record', () => {
    recordError('uncaught', new Error('сбой'), 'in Widget');
    const [record] = readErrorRecords();
    expect(record).toMatchObject({ type: 'uncaught', message: 'сбой', componentStack: 'in Widget' });
    expect(record?.stack).toContain('сбой');
    expect(record?.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('recovers from a corrupt reactErrors value', () => {
    localStorage.setItem(StorageKeys.reactErrors, '{не json');
    recordError('caught', new Error('после порчи'));
    expect(readErrorRecords().map((r) => r.message)).toEqual(['после порчи']);
  });

  it('never records ResizeObserver loop errors', () => {
    expect(isResizeObserverLoopError('ResizeObserver loop limit exceeded')).toBe(true);
    expect(isResizeObserverLoopError('ResizeObserver loop completed with undelivered notifications.')).toBe(
      true,
    );
    expect(recordError('uncaught', new Error('ResizeObserver loop limit exceeded'))).toBe(false);
    recordRenderCrash(new Error('ResizeObserver loop completed with undelivered notifications.'), null);
    expect(localStorage.getItem(StorageKeys.reactErrors)).toBeNull();
    expect(localStorage.getItem(StorageKeys.lastError)).toBeNull();
  });
});

describe('global handlers', () => {
  it('record window errors and unhandled rejections as uncaught', () => {
    uninstall = installGlobalErrorHandlers();
    window.dispatchEvent(new ErrorEvent('error', { message: 'Сбой', error: new Error('Сбой') }));
    const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(rejection, 'reason', { value: new Error('Отказ промиса') });
    window.dispatchEvent(rejection);

    const records: ErrorRecord[] = readErrorRecords();
    expect(records.map((r) => [r.type, r.message])).toEqual([
      ['uncaught', 'Сбой'],
      ['uncaught', 'Отказ промиса'],
    ]);
  });

  it('swallow ResizeObserver loop errors before other listeners see them', () => {
    uninstall = installGlobalErrorHandlers();
    let seenByOthers = false;
    const other = () => {
      seenByOthers = true;
    };
    window.addEventListener('error', other);
    const event = new ErrorEvent('error', {
      message: 'ResizeObserver loop limit exceeded',
      cancelable: true,
    });
    window.dispatchEvent(event);
    window.removeEventListener('error', other);

    expect(seenByOthers).toBe(false);
    expect(event.defaultPrevented).toBe(true);
    expect(readErrorRecords()).toEqual([]);
  });
});
