import { ErrorCode, ErrorText } from '@kadr/contract';

/** A domain error: services throw it, the error handler turns it into `{ error, code }`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const errors = {
  validation: (fields: Record<string, string>, message: string = ErrorText.validationFailed) =>
    new AppError(400, ErrorCode.validationFailed, message, fields),
  unauthorized: () => new AppError(401, ErrorCode.unauthorized, ErrorText.unauthorized),
  invalidCredentials: () => new AppError(401, ErrorCode.invalidCredentials, ErrorText.invalidCredentials),
  forbidden: (message: string = ErrorText.forbidden) => new AppError(403, ErrorCode.forbidden, message),
  notFound: (message: string = ErrorText.notFound) => new AppError(404, ErrorCode.notFound, message),
  conflict: (code: string, message: string, fields?: Record<string, string>) =>
    new AppError(409, code, message, fields),
  rateLimited: (retryAfterMs: number) =>
    Object.assign(new AppError(429, ErrorCode.rateLimited, ErrorText.rateLimited), { retryAfterMs }),
  /** Backpressure: refused at once rather than queued for seconds (429 with Retry-After). */
  busy: (retryAfterMs: number) =>
    Object.assign(new AppError(429, ErrorCode.serverBusy, ErrorText.serverBusy), { retryAfterMs }),
  unsupportedMedia: (message: string) => new AppError(400, ErrorCode.unsupportedMediaType, message),
};
