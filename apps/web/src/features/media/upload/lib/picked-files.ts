/** One picked file with its preview address (an object URL, revoked when the file leaves the form). */
export interface PickedFile {
  key: string;
  file: File;
  url: string;
}

/** Moves the item at `from` by `step` places, keeping the list as is at the ends. */
export function moveItem<T>(items: readonly T[], from: number, step: number): T[] {
  const to = from + step;
  if (from < 0 || from >= items.length || to < 0 || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1) as [T];
  next.splice(to, 0, item);
  return next;
}

/** An AbortError from the api client (the user cancelled the upload). */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
