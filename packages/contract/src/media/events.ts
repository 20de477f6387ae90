import type { MediaProcessingEvent } from './schemas.ts';

/** The media feed's realtime events (server → client). */
export interface MediaServerEvents {
  /** Post processing progress, to the uploader only. */
  'media-processing': (event: MediaProcessingEvent) => void;
}
