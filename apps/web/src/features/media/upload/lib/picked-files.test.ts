import { describe, expect, it } from 'vitest';
import { isAbort, moveItem } from './picked-files.ts';

describe('moveItem', () => {
  it('moves an item one place either way and stays put at the ends', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('tells a cancelled upload from a failed one', () => {
    expect(isAbort(new DOMException('Upload aborted', 'AbortError'))).toBe(true);
    expect(isAbort(new Error('boom'))).toBe(false);
  });
});
