import type { InvitationsChangedEvent } from './schemas.ts';

export interface InvitationServerEvents {
  /** To the invitee's devices: an invitation arrived, or one was accepted or declined. */
  'invitations-changed': (event: InvitationsChangedEvent) => void;
}
