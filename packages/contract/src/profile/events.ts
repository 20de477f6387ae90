/** How many follow requests wait for the owner of a private account. */
export interface FollowRequestsChangedEvent {
  count: number;
}

export interface ProfileServerEvents {
  /** To a private account owner's devices: a follow request arrived, was withdrawn or answered. */
  'follow-requests-changed': (event: FollowRequestsChangedEvent) => void;
}
