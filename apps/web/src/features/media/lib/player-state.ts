/** Video playback states of spec §4.8, as a union keyed by status. */
export type PlayerState =
  | { status: 'unloaded' }
  | { status: 'loading' }
  | { status: 'ready' }
  | { status: 'playing' }
  | { status: 'paused' }
  | { status: 'error' };

export type PlayerEvent =
  | { type: 'load' }
  | { type: 'loadedmetadata' }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'error' }
  | { type: 'retry' }
  | { type: 'unload' };

export const initialPlayerState: PlayerState = { status: 'unloaded' };

export function playerReducer(state: PlayerState, event: PlayerEvent): PlayerState {
  switch (event.type) {
    case 'load':
      return state.status === 'unloaded' ? { status: 'loading' } : state;
    case 'loadedmetadata':
      return state.status === 'loading' || state.status === 'unloaded' ? { status: 'ready' } : state;
    case 'play':
      return state.status === 'error' || state.status === 'unloaded' ? state : { status: 'playing' };
    case 'pause':
      return state.status === 'playing' ? { status: 'paused' } : state;
    case 'error':
      return state.status === 'unloaded' ? state : { status: 'error' };
    case 'retry':
      return state.status === 'error' ? { status: 'loading' } : state;
    case 'unload':
      return { status: 'unloaded' };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/** The element should carry its source (anything but released). */
export const hasSource = (state: PlayerState): boolean => state.status !== 'unloaded';
