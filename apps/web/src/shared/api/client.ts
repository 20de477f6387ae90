import type { ErrorBody, RouteBody, RouteParams, RouteQuery, RouteResult, RouteSpec } from '@kadr/contract';
import { API_PREFIX, type Endpoint, fillPath } from '@kadr/contract/browser';
import { ru } from '../i18n/ru.ts';

/** A failed API call: the server's Russian `error` text, its `code`, and per-field messages for forms. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Readonly<Record<string, string>>;

  constructor(status: number, body: ErrorBody) {
    super(body.error);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.fields = body.fields ?? {};
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

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

type PathParams = Readonly<Record<string, string | number>> | undefined;

type Optionalize<K extends string, T> = undefined extends T ? { [P in K]?: T } : { [P in K]: T };

/** What a call needs: the params, query and body its route declares (a FormData for multipart). */
export type CallOptions<R extends RouteSpec> = Optionalize<'params', RouteParams<R>> &
  Optionalize<'query', RouteQuery<R>> &
  Optionalize<'body', RouteBody<R>> & {
    form?: R['multipart'] extends undefined ? undefined : FormData;
    signal?: AbortSignal;
  };

type CallArgs<R extends RouteSpec> =
  {} extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorBody).error === 'string' &&
    typeof (value as ErrorBody).code === 'string'
  );
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const url = `${API_PREFIX}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

export function createApiClient() {
  let config: ApiConfig = { getToken: () => null, onUnauthorized: () => {} };

  async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    const token = config.getToken();
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    let response: Response;
    try {
      response = await fetch(buildUrl(path, options.query), {
        method,
        headers,
        body,
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, { error: ru.app.networkError, code: NETWORK_ERROR_CODE });
    }

    if (response.status === 204) return undefined as T;
    const payload: unknown = await response.json().catch(() => undefined);
    if (response.ok) return payload as T;

    if (response.status === 401 && token) config.onUnauthorized();
    throw new ApiError(
      response.status,
      isErrorBody(payload) ? payload : { error: ru.app.unknownError, code: `http_${response.status}` },
    );
  }

  /**
   * Calls a route through its endpoint view (`@kadr/contract/<capability>/endpoints`): the path is
   * filled from `params`, and the answer is typed from the route object — no path strings, no casts.
   */
  function call<R extends RouteSpec>(route: Endpoint<R>, ...args: CallArgs<R>): Promise<RouteResult<R>> {
    // Inside the client the options are plain data; their types were checked at the call site.
    const options: {
      params?: PathParams;
      query?: RequestOptions['query'];
      body?: unknown;
      form?: FormData;
      signal?: AbortSignal;
    } = args[0] ?? {};
    return request<RouteResult<R>>(route.method, fillPath(route.path, options.params), {
      body: options.body ?? options.form,
      query: options.query,
      signal: options.signal,
    });
  }

  return {
    call,
    configure(next: ApiConfig) {
      config = next;
    },
    get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>('POST', path, { ...options, body }),
    patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>('PATCH', path, { ...options, body }),
    delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's one client; `app/` wires it to the auth store at start. */
export const api = createApiClient();
