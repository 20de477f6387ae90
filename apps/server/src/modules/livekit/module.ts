import { livekitRoutes } from '@kadr/contract/livekit/routes';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import * as mediaRooms from './migrations/0002-media-rooms.ts';
import { mediaRoomsRepository } from './repository.ts';
import { roomServiceClient } from './room-service.ts';
import { type MediaPlaneService, mediaPlaneService } from './service.ts';
import { livekitProbe, type MediaServerProbe } from './status.ts';
import { mediaTokenIssuer } from './tokens.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** LiveKit tokens (stream, call, voice rooms) and the room state kept from its webhooks. */
    mediaPlane: MediaPlaneService;
    /** Whether the LiveKit server answers (health, the web's "media unavailable" notice). */
    mediaServer: MediaServerProbe;
  }
}

/** The media plane: LiveKit tokens, its webhooks and the room state kept from them. */
export const livekitModule = defineModule({
  name: 'livekit',
  migrations: { '0002-media-rooms': mediaRooms },
  async register(api, ctx) {
    const { livekit } = ctx.config;
    const mediaPlane = mediaPlaneService({
      tokens: mediaTokenIssuer({
        serverUrl: livekit.publicUrl,
        apiKey: livekit.apiKey,
        apiSecret: livekit.apiSecret,
      }),
      repo: mediaRoomsRepository(ctx.db.kysely),
      apiKey: livekit.apiKey,
      apiSecret: livekit.apiSecret,
      rooms: roomServiceClient(livekit),
    });
    ctx.mediaPlane = mediaPlane;
    ctx.mediaServer = livekitProbe(livekit.url);

    registerRoutes(
      api,
      livekitRoutes,
      {
        webhook: async ({ raw }) => {
          // Any other content type was parsed already, so its exact bytes (and the signature) are gone.
          const body = typeof raw.body === 'string' ? raw.body : null;
          await mediaPlane.receiveWebhook(body, raw.headers.authorization);
          return { ok: true as const };
        },
        room: (req) => mediaPlane.room(req.params.name, req.userId),
      },
      { tag: 'livekit' },
    );
    return { services: mediaPlane };
  },
});
