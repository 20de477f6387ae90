import { StorageKeys } from '../../shared/storage/keys.ts';
import { local } from '../../shared/storage/local.ts';

export const MAX_ERROR_RECORDS = 10;

export interface ErrorRecord {
  type: 'uncaught' | 'caught';
  message: string;
  stack: string | null;
  componentStack: string | null;
  timestamp: string;
}

export interface LastError {
  message: string;
  stack: string | null;
  componentStack: string | null;
  timestamp: string;
}

const RESIZE_OBSERVER_LOOP = /ResizeObserver loop/i;

/** Browsers report harmless layout-loop notices as errors; they are never recorded or shown. */
export function isResizeObserverLoopError(message: string | undefined | null): boolean {
  return typeof message === 'string' && RESIZE_OBSERVER_LOOP.test(message);
}

function describe(error: unknown): { message: string; stack: string | null } {
  if (error instanceof Error) return { message: error.message, stack: error.stack ?? null };
  if (typeof error === 'string') return { message: error, stack: null };
  try {
    return { message: JSON.stringify(error) ?? String(error), stack: null };
  } catch {
    return { message: String(error), stack: null };
  }
}

export function readErrorRecords(): ErrorRecord[] {
  const stored = local.getJson(StorageKeys.reactErrors);
  if (!stored || 'corrupt' in stored || !Array.isArray(stored.value)) return [];
  return stored.value as ErrorRecord[];
}

/** Appends a record to `reactErrors`, keeping the newest ten. Returns false for suppressed errors. */
export function recordError(
  type: ErrorRecord['type'],
  error: unknown,
  componentStack?: string | null,
): boolean {
  const { message, stack } = describe(error);
  if (isResizeObserverLoopError(message)) return false;
  const record: ErrorRecord = {
    type,
    message,
    stack,
    componentStack: componentStack ?? null,
    timestamp: new Date().toISOString(),
  };
  local.setJson(StorageKeys.reactErrors, [...readErrorRecords(), record].slice(-MAX_ERROR_RECORDS));
  return true;
}

/** A rendering crash: saved as `lastError` and appended to `reactErrors`. */
export function recordRenderCrash(error: unknown, componentStack: string | null | undefined): void {
  const { message, stack } = describe(error);
  if (isResizeObserverLoopError(message)) return;
  const lastError: LastError = {
    message,
    stack,
    componentStack: componentStack ?? null,
    timestamp: new Date().toISOString(),
  };
  local.setJson(StorageKeys.lastError, lastError);
  recordError('caught', error, componentStack);
}

/** Records errors nothing else caught; swallows ResizeObserver loop notices. Returns the uninstaller. */
export function installGlobalErrorHandlers(target: Window = window): () => void {
  const onError = (event: ErrorEvent) => {
    const message = event.error instanceof Error ? event.error.message : event.message;
    if (isResizeObserverLoopError(message)) {
      event.stopImmediatePropagation();
      event.preventDefault();
      return;
    }
    recordError('uncaught', event.error ?? event.message);
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    recordError('uncaught', event.reason);
  };
  target.addEventListener('error', onError, true);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError, true);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
