// Plain values (no schema), so the browser may import them through @kadr/contract/browser.

/**
 * Texts of the chat entry a call leaves (spec §1 calls: 'Исходящий звонок · 3:12', 'Пропущенный звонок',
 * 'Отклонённый звонок'; the video forms and the per-side words are ours). The entry is one message whose
 * sender is the caller, so its stored text is the caller's; the callee reads it through `callEntrySeenBy`.
 */
export const CallEntryText = {
  outgoing: 'Исходящий звонок',
  outgoingVideo: 'Исходящий видеозвонок',
  incoming: 'Входящий звонок',
  incomingVideo: 'Входящий видеозвонок',
  missed: 'Пропущенный звонок',
  missedVideo: 'Пропущенный видеозвонок',
  cancelled: 'Отменённый звонок',
  cancelledVideo: 'Отменённый видеозвонок',
  rejected: 'Отклонённый звонок',
  rejectedVideo: 'Отклонённый видеозвонок',
  /** After the caller's 'Исходящий звонок': nobody answered, or the line was busy. */
  noAnswer: 'нет ответа',
  busy: 'занято',
} as const;

/** How a call ended, as its chat entry tells it. */
export type CallEntryOutcome = 'answered' | 'unanswered' | 'busy' | 'cancelled' | 'declined';

/** `Исходящий звонок · 3:12` for a call that lasted 192 s. */
export function formatCallDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The entry's text as the caller (its sender) reads it. */
export function callEntryText(outcome: CallEntryOutcome, video: boolean, durationSeconds = 0): string {
  const t = CallEntryText;
  const outgoing = video ? t.outgoingVideo : t.outgoing;
  switch (outcome) {
    case 'answered':
      return `${outgoing} · ${formatCallDuration(durationSeconds)}`;
    case 'unanswered':
      return `${outgoing} · ${t.noAnswer}`;
    case 'busy':
      return `${outgoing} · ${t.busy}`;
    case 'cancelled':
      return video ? t.cancelledVideo : t.cancelled;
    case 'declined':
      return video ? t.rejectedVideo : t.rejected;
  }
}

/**
 * The entry's text for one reader: the caller (the message's sender) reads it as stored; the callee reads
 * 'Входящий' for an answered call and 'Пропущенный' for one that rang unanswered, was cancelled or met a
 * busy line. Texts it does not know (older entries) are shown as they are.
 */
export function callEntrySeenBy(stored: string, readerIsCaller: boolean): string {
  if (readerIsCaller) return stored;
  const t = CallEntryText;
  for (const video of [false, true]) {
    const outgoing = video ? t.outgoingVideo : t.outgoing;
    const missed = video ? t.missedVideo : t.missed;
    if (stored === (video ? t.cancelledVideo : t.cancelled)) return missed;
    if (stored === `${outgoing} · ${t.noAnswer}` || stored === `${outgoing} · ${t.busy}`) return missed;
    if (stored.startsWith(`${outgoing} · `))
      return `${video ? t.incomingVideo : t.incoming}${stored.slice(outgoing.length)}`;
  }
  return stored;
}
