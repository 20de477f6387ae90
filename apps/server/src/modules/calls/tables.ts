import type { Generated } from 'kysely';

export type CallStateColumn =
  | 'ringing'
  | 'connecting'
  | 'active'
  | 'ended'
  | 'rejected'
  | 'failed'
  | 'busy'
  | 'missed';

export interface CallsTable {
  id: Generated<number>;
  caller_id: number;
  callee_id: number;
  kind: 'audio' | 'video';
  state: CallStateColumn;
  end_reason: 'hangup' | 'cancelled' | 'disconnected' | null;
  caller_key: string | null;
  callee_key: string | null;
  /** The Socket.IO id of the device each side talks from; its disconnect starts the grace period. */
  caller_socket: string | null;
  callee_socket: string | null;
  caller_away_at: Date | null;
  callee_away_at: Date | null;
  caller_connected_at: Date | null;
  callee_connected_at: Date | null;
  created_at: Generated<Date>;
  answered_at: Date | null;
  started_at: Date | null;
  ended_at: Date | null;
}

/**
 * A user's one live call (ringing, connecting or active). The primary key makes "busy" a database
 * fact: two calls racing for one callee cannot both get the line.
 */
export interface CallLinesTable {
  user_id: number;
  call_id: number;
}

declare module '../../db/schema.ts' {
  interface Database {
    calls: CallsTable;
    call_lines: CallLinesTable;
  }
}
