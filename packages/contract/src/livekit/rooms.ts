/** Schema-free media-plane (LiveKit) constants the browser may import at run time. */

export const MediaErrorCode = {
  mediaServerUnavailable: 'media_server_unavailable',
  invalidWebhookSignature: 'invalid_webhook_signature',
} as const;

export const MediaErrorText = {
  mediaServerUnavailable: 'Эфиры и звонки сейчас недоступны: медиасервер не запущен',
  invalidWebhookSignature: 'Подпись вебхука медиасервера не прошла проверку',
  roomNotFound: 'Медиакомната не найдена',
} as const;
