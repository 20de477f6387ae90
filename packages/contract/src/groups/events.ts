import type { GroupUpdatedEvent } from './schemas.ts';

/** Group events, server → client. */
export interface GroupServerEvents {
  /** Membership, role or settings changed; a client reloads the group and the chat list. */
  'group-updated': (event: GroupUpdatedEvent) => void;
}
