import type { Call } from '@kadr/contract';
import type { CallRow } from './repository.ts';

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

export function toCall(row: CallRow): Call {
  const started = row.started_at === null ? null : new Date(row.started_at).getTime();
  const ended = row.ended_at === null ? null : new Date(row.ended_at).getTime();
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    end_reason: row.end_reason,
    caller: {
      id: row.caller_id,
      username: row.caller_username,
      name: row.caller_name,
      avatar_url: row.caller_avatar_url,
    },
    callee: {
      id: row.callee_id,
      username: row.callee_username,
      name: row.callee_name,
      avatar_url: row.callee_avatar_url,
    },
    caller_key: row.caller_key,
    callee_key: row.callee_key,
    created_at: new Date(row.created_at).toISOString(),
    answered_at: iso(row.answered_at),
    started_at: iso(row.started_at),
    ended_at: iso(row.ended_at),
    duration: started !== null && ended !== null ? Math.max(0, Math.round((ended - started) / 1000)) : null,
  };
}
