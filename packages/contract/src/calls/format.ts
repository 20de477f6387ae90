// Plain values (no schema), so the browser may import them through @kadr/contract/browser.

/** Texts of the chat entry a call leaves (spec §1 calls; the duration as m:ss or h:mm:ss). */
export const CallEntryText = {
  outgoing: 'Исходящий звонок',
  missed: 'Пропущенный звонок',
  rejected: 'Отклонённый звонок',
} as const;

/** `Исходящий звонок · 3:12` for a call that lasted 192 s. */
export function formatCallDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
