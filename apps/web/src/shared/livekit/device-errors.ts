import { ru } from '../i18n/ru.ts';

/** Why a camera or microphone could not be used, grouped the way spec §8 words it. */
export type DeviceFailure = 'blocked' | 'not-found' | 'unavailable' | 'other';

/** The DOMException names getUserMedia rejects with, grouped by what the user can do about them. */
const FAILURES: Record<string, DeviceFailure> = {
  NotAllowedError: 'blocked',
  PermissionDeniedError: 'blocked',
  SecurityError: 'blocked',
  NotFoundError: 'not-found',
  DevicesNotFoundError: 'not-found',
  OverconstrainedError: 'not-found',
  NotReadableError: 'unavailable',
  TrackStartError: 'unavailable',
  AbortError: 'unavailable',
};

export function deviceFailure(error: unknown): DeviceFailure {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return (typeof name === 'string' && FAILURES[name]) || 'other';
}

const CAMERA_TEXT: Record<DeviceFailure, string> = {
  blocked: ru.mediaPlane.cameraBlocked,
  'not-found': ru.mediaPlane.cameraNotFound,
  unavailable: ru.mediaPlane.cameraUnavailable,
  other: ru.mediaPlane.cameraFailed,
};

const MICROPHONE_TEXT: Record<DeviceFailure, string> = {
  blocked: ru.mediaPlane.microphoneBlocked,
  'not-found': ru.mediaPlane.microphoneNotFound,
  unavailable: ru.mediaPlane.microphoneUnavailable,
  other: ru.mediaPlane.microphoneFailed,
};

/** The spec §8 text for a camera error from the browser (getUserMedia and friends). */
export function cameraErrorMessage(error: unknown): string {
  return CAMERA_TEXT[deviceFailure(error)];
}

export function microphoneErrorMessage(error: unknown): string {
  return MICROPHONE_TEXT[deviceFailure(error)];
}

/** A publish that failed; `message` is the Russian text to show as is. */
export class MediaPublishError extends Error {
  readonly device: 'camera' | 'microphone';
  /** 'forbidden': the token's role may not publish this source (a viewer, or a guest's camera). */
  readonly failure: DeviceFailure | 'forbidden';

  constructor(
    device: 'camera' | 'microphone',
    failure: DeviceFailure | 'forbidden',
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = 'MediaPublishError';
    this.device = device;
    this.failure = failure;
  }
}
