import type { ReachPolicy } from '../settings/reach.ts';

/** What blocks mean for one person in one stream's chat. */
export interface LiveChatReach {
  /** The host and this person blocked each other (either way): no token, no join, no chat line. */
  walledFromHost: boolean;
  /** People who blocked this person: their screens never show this person's lines. */
  blockedBy: number[];
  /** People this person blocked: left out of the chat history this person reads. */
  blocking: number[];
}

/**
 * The live stream's view of the reach policy (settings/reach.ts, the one place blocks are decided): who
 * stands on the other side of a block from this person, from the policy's cached sets.
 */
export function liveChatReach(reach: ReachPolicy) {
  return async function liveReach(userId: number, hostId: number): Promise<LiveChatReach> {
    const [blockers, blocked] = await Promise.all([reach.blockersOf(userId), reach.blockedBy(userId)]);
    const walledFromHost = userId !== hostId && (blockers.has(hostId) || blocked.has(hostId));
    return { walledFromHost, blockedBy: [...blockers], blocking: [...blocked] };
  };
}

export type LiveChatReachCheck = ReturnType<typeof liveChatReach>;
