import { ErrorBody, MediaRoomParams, MediaRoomState, mediaPlanePaths } from '@kadr/contract';
import { Type } from 'typebox';
import type { App } from '../../app-types.ts';

/** LiveKit posts webhooks as `application/webhook+json`; the signature covers the exact bytes. */
const WEBHOOK_CONTENT_TYPE = 'application/webhook+json';

/** POST /livekit/webhook — LiveKit's room and participant events, verified against the API secret. */
export async function livekitWebhookRoutes(app: App) {
  const { mediaPlane } = app.ctx;
  // Scoped to this plugin: the raw string is kept because the sha256 in the signature is over the body bytes.
  app.addContentTypeParser(WEBHOOK_CONTENT_TYPE, { parseAs: 'string' }, (_req, body, done) =>
    done(null, body),
  );

  app.post(
    mediaPlanePaths.webhook,
    {
      schema: {
        tags: ['media plane'],
        summary: 'LiveKit webhook receiver (signed with the LiveKit API key)',
        consumes: [WEBHOOK_CONTENT_TYPE],
        response: { 200: Type.Object({ ok: Type.Literal(true) }), 401: ErrorBody },
      },
    },
    async (req) => {
      // Any other content type was parsed already, so its exact bytes (and the signature) are gone.
      const body = typeof req.body === 'string' ? req.body : null;
      await mediaPlane.receiveWebhook(body, req.headers.authorization);
      return { ok: true as const };
    },
  );
}

/** GET /livekit/rooms/{name} — the room state kept from webhooks (status, participant count). */
export async function livekitRoomRoutes(app: App) {
  const { mediaPlane } = app.ctx;
  app.get(
    '/livekit/rooms/:name',
    {
      config: { auth: 'required' },
      schema: {
        tags: ['media plane'],
        security: [{ bearer: [] }],
        params: MediaRoomParams,
        response: { 200: MediaRoomState, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => mediaPlane.room(req.params.name),
  );
}
