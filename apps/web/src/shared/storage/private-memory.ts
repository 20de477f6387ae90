/**
 * What features hold in memory on top of the device's private stores (the outbox, drafts, a pending cache
 * save): each registers how to forget it, and sign-out calls them all (private-data.ts). Kept apart from
 * the stores so a feature among the first scripts can register without pulling IndexedDB code in.
 */
type Forget = () => void;
const forgetters = new Set<Forget>();

/** A feature holding private data in memory forgets it on sign-out. */
export function onPrivateDataCleared(forget: Forget): () => void {
  forgetters.add(forget);
  return () => forgetters.delete(forget);
}

export function forgetPrivateMemory(): void {
  for (const forget of forgetters) forget();
}
