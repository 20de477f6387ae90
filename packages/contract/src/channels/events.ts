import type { ChannelUpdatedEvent } from './schemas.ts';

/** Channel events, server → client. */
export interface ChannelServerEvents {
  /** Subscription, administrators or settings changed; a client reloads the channel and the chat list. */
  'channel-updated': (event: ChannelUpdatedEvent) => void;
}
