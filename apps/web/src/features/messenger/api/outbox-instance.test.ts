import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR_CODE } from '../../../shared/api/client.ts';
import { sendOutcomeOf } from './outbox-instance.ts';

describe('sendOutcomeOf', () => {
  it('retries what time can fix, and fails with the reason what a resend cannot change', () => {
    expect(sendOutcomeOf(new ApiError(0, { code: NETWORK_ERROR_CODE, error: 'нет сети' }))).toBe(
      'retry-later',
    );
    expect(sendOutcomeOf(new ApiError(503, { code: 'internal', error: 'сбой' }))).toBe('retry-later');
    expect(sendOutcomeOf(new ApiError(429, { code: 'rate_limited', error: 'подождите' }))).toBe(
      'retry-later',
    );
    expect(sendOutcomeOf(new ApiError(400, { code: 'validation_failed', error: 'Слишком длинное' }))).toEqual(
      {
        failed: true,
        error: 'Слишком длинное',
        retryable: false,
      },
    );
    expect(
      sendOutcomeOf(new ApiError(403, { code: 'messages_restricted', error: 'Только подписчикам' })),
    ).toMatchObject({
      retryable: false,
    });
    expect(
      sendOutcomeOf(new ApiError(409, { code: 'attachment_processing', error: 'Ещё обрабатывается' })),
    ).toMatchObject({
      retryable: true,
    });
  });
});
