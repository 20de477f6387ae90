import type { ErrorBody, RouteBody, RouteParams, RouteQuery, RouteResult, RouteSpec } from '@kadr/contract';
import { apiUrl, type Endpoint, PAGE_HEADER } from '@kadr/contract/browser';
import { ru } from '../i18n/ru.ts';
import { yieldToMain } from '../lib/yield-to-main.ts';
import { forgetBootResponses, readBootResponse, takeBootResponse } from './boot-responses.ts';
import { PAGE_ID } from './page-id.ts';

/** A failed API call: the server's Russian `error` text, its `code`, and per-field messages for forms. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Readonly<Record<string, string>>;
  /** The whole answer, for routes whose error carries more than `{ error, code, fields }` (a login challenge). */
  readonly body: Readonly<ErrorBody & Record<string, unknown>>;

  constructor(status: number, body: ErrorBody) {
    super(body.error);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.fields = body.fields ?? {};
    this.body = body;
  }
}

export const NETWORK_ERROR_CODE = 'network_error';

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return ru.app.unknownError;
}

interface ApiConfig {
  getToken: () => string | null;
  /** Called when a request that carried a token is answered with 401: the session is gone. */
  onUnauthorized: () => void;
}

type PathParams = Readonly<Record<string, string | number>> | undefined;
type QueryValues = Readonly<Record<string, string | number | boolean | undefined>> | undefined;

/** A part is optional when the route has none or when every field of it is optional. */
type Optionalize<K extends string, T> = undefined extends T
  ? { [P in K]?: T }
  : Record<string, never> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

/** What a call needs: the params, query and body its route declares (a FormData for multipart). */
export type CallOptions<R extends RouteSpec> = Optionalize<'params', RouteParams<R>> &
  Optionalize<'query', RouteQuery<R>> &
  Optionalize<'body', RouteBody<R>> & {
    form?: R['multipart'] extends undefined ? undefined : FormData;
    signal?: AbortSignal;
    /** Upload progress 0..1 as bytes leave the browser (multipart only; sent through XMLHttpRequest). */
    onUploadProgress?: R['multipart'] extends undefined ? undefined : (fraction: number) => void;
    /**
     * Non-2xx statuses whose answer is still the route's success body (health answers 503 with the
     * same report), returned instead of thrown.
     */
    acceptStatus?: readonly number[];
  };

type CallArgs<R extends RouteSpec> =
  // biome-ignore lint/complexity/noBannedTypes: `{} extends T` is the test for "every option is optional".
  {} extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

interface PlainOptions {
  params?: PathParams;
  query?: QueryValues;
  body?: unknown;
  form?: FormData;
  signal?: AbortSignal;
  onUploadProgress?: (fraction: number) => void;
  acceptStatus?: readonly number[];
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  return (
    'error' in value && typeof value.error === 'string' && 'code' in value && typeof value.code === 'string'
  );
}

/** The answer as the client received it: status and parsed JSON (untyped until `call` gives it its route's type). */
interface Received {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON; `call` returns it as its route's result type (the server serialized it with the same schema).
  payload: any;
}

function sendXhr(
  method: string,
  url: string,
  headers: Record<string, string>,
  form: FormData,
  onProgress: (fraction: number) => void,
  signal: AbortSignal | undefined,
): Promise<Received> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, payload: xhr.response ?? undefined });
    xhr.onerror = () => reject(new ApiError(0, { error: ru.app.networkError, code: NETWORK_ERROR_CODE }));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

export function createApiClient() {
  let config: ApiConfig = { getToken: () => null, onUnauthorized: () => {} };

  async function send(method: string, url: string, options: PlainOptions): Promise<Received> {
    const token = config.getToken();
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (method !== 'GET') headers[PAGE_HEADER] = PAGE_ID;
    if (options.form && options.onUploadProgress) {
      return withErrors(
        await sendXhr(method, url, headers, options.form, options.onUploadProgress, options.signal),
        token,
        options,
      );
    }
    let body: BodyInit | undefined;
    if (options.form) {
      body = options.form;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    let response: Response;
    // The page's first requests were started by index.html's boot script: its answer, not a second ask. A
    // write makes those answers the state of before it.
    if (method !== 'GET') forgetBootResponses();
    const started = method === 'GET' && body === undefined ? takeBootResponse(url) : undefined;
    const boot = started ? readBootResponse(url, started, options.signal) : null;
    try {
      try {
        const answered = boot && (await boot.response);
        // A read starts in a task of its own (yield-to-main.ts): the queries a commit's effects start are
        // not all paid for inside that commit. A write is sent at once, in the task of the press.
        if (!answered && method === 'GET') await yieldToMain();
        response = answered || (await fetch(url, { method, headers, body, signal: options.signal }));
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new ApiError(0, { error: ru.app.networkError, code: NETWORK_ERROR_CODE });
      }
      if (response.status === 204) return { status: 204, payload: undefined };
      const payload = await response.json().catch(() => undefined);
      return withErrors({ status: response.status, payload }, token, options);
    } finally {
      boot?.done();
    }
  }

  function withErrors(received: Received, token: string | null, options: PlainOptions): Received {
    const { status, payload } = received;
    if ((status >= 200 && status < 300) || options.acceptStatus?.includes(status)) return received;
    if (status === 401 && token) config.onUnauthorized();
    throw new ApiError(
      status,
      isErrorBody(payload) ? payload : { error: ru.app.unknownError, code: `http_${status}` },
    );
  }

  /**
   * Calls a route through its endpoint view (`@kadr/contract/<capability>/endpoints`): the path is
   * filled from `params`, and the answer is typed from the route object — no path strings, no casts.
   */
  async function call<R extends RouteSpec>(
    route: Endpoint<R>,
    ...args: CallArgs<R>
  ): Promise<RouteResult<R>> {
    // Inside the client the options are plain data; their types were checked at the call site.
    const options: PlainOptions = args[0] ?? {};
    const { payload } = await send(route.method, apiUrl(route, options.params, options.query), options);
    return payload;
  }

  return {
    call,
    configure(next: ApiConfig) {
      config = next;
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's one client; `app/` wires it to the auth store at start. */
export const api = createApiClient();
