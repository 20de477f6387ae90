/** Narrows untrusted data (a data-channel packet, a cached value of unknown shape) to its fields, to check one by one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
