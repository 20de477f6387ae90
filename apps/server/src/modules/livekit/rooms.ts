/**
 * Media room names — the one place they are made and read. LiveKit rooms are named after the thing
 * they carry, so a webhook can be traced back to it without a lookup:
 *
 *   stream-<streamId>               a live stream (host, up to 5 guests, viewers)
 *   call-<callId>                   a one-to-one call
 *   voice-<groupId>-<sessionId>     one session of a group's voice chat
 */
export type MediaRoom =
  | { kind: 'stream'; streamId: number }
  | { kind: 'call'; callId: number }
  | { kind: 'voice'; groupId: number; sessionId: number };

export function mediaRoomName(room: MediaRoom): string {
  switch (room.kind) {
    case 'stream':
      return `stream-${room.streamId}`;
    case 'call':
      return `call-${room.callId}`;
    case 'voice':
      return `voice-${room.groupId}-${room.sessionId}`;
  }
}

const ID = '([1-9]\\d{0,9})';
const PATTERNS: ReadonlyArray<[RegExp, (m: RegExpExecArray) => MediaRoom]> = [
  [new RegExp(`^stream-${ID}$`), (m) => ({ kind: 'stream', streamId: Number(m[1]) })],
  [new RegExp(`^call-${ID}$`), (m) => ({ kind: 'call', callId: Number(m[1]) })],
  [
    new RegExp(`^voice-${ID}-${ID}$`),
    (m) => ({ kind: 'voice', groupId: Number(m[1]), sessionId: Number(m[2]) }),
  ],
];

/** The room a LiveKit room name stands for, or null for a name Kadr did not make. */
export function parseMediaRoomName(name: string): MediaRoom | null {
  for (const [pattern, build] of PATTERNS) {
    const match = pattern.exec(name);
    if (match) return build(match);
  }
  return null;
}
