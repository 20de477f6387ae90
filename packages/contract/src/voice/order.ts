/** What ordering needs of a participant (voice/schemas.ts `VoiceParticipant`); no schema here (browser-safe). */
interface OrderedParticipant {
  user_id: number;
  joined_at: string;
  hand_raised_at: string | null;
}

/**
 * The order the participant list is shown in: join order for everyone; for those who run the chat (the
 * starter, group owners and admins: `can_end`) raised hands come first, the earliest raised on top.
 */
export function orderVoiceParticipants<P extends OrderedParticipant>(
  participants: readonly P[],
  moderator: boolean,
): P[] {
  const byJoin = (a: P, b: P) => a.joined_at.localeCompare(b.joined_at) || a.user_id - b.user_id;
  return [...participants].sort((a, b) => {
    if (moderator) {
      if (a.hand_raised_at && b.hand_raised_at)
        return a.hand_raised_at.localeCompare(b.hand_raised_at) || byJoin(a, b);
      if (a.hand_raised_at) return -1;
      if (b.hand_raised_at) return 1;
    }
    return byJoin(a, b);
  });
}
