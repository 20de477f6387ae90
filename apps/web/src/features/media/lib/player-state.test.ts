import { describe, expect, it } from 'vitest';
import { initialPlayerState, type PlayerEvent, type PlayerState, playerReducer } from './player-state.ts';

const run = (events: PlayerEvent['type'][], from: PlayerState = initialPlayerState) =>
  events.reduce((state, type) => playerReducer(state, { type } as PlayerEvent), from).status;

describe('playerReducer', () => {
  it('goes unloaded → loading → ready → playing ⇄ paused', () => {
    expect(run(['load'])).toBe('loading');
    expect(run(['load', 'loadedmetadata'])).toBe('ready');
    expect(run(['load', 'loadedmetadata', 'play'])).toBe('playing');
    expect(run(['load', 'loadedmetadata', 'play', 'pause'])).toBe('paused');
    expect(run(['load', 'loadedmetadata', 'play', 'pause', 'play'])).toBe('playing');
  });

  it('an error holds until retry, which loads again', () => {
    expect(run(['load', 'error'])).toBe('error');
    expect(run(['load', 'error', 'play'])).toBe('error');
    expect(run(['load', 'error', 'retry'])).toBe('loading');
  });

  it('unload releases from any state and ignores late media events', () => {
    expect(run(['load', 'loadedmetadata', 'play', 'unload'])).toBe('unloaded');
    expect(run(['load', 'unload', 'error'])).toBe('unloaded');
    expect(run(['unload', 'play'])).toBe('unloaded');
  });
});
