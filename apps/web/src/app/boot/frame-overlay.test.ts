import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from '../../shared/lib/when-idle.ts';
import { dropFrame, liftFrame } from './frame-overlay.ts';

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

function rootWithFrame(): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = '<div class="kf" aria-hidden="true" data-frame="home"><i class="kf-b"></i></div>';
  document.body.appendChild(root);
  return root;
}

describe('the frame over the app', () => {
  it('lifts the frame over the app, holds idle work until the page has shown, then fades it and removes it at the first input', () => {
    vi.stubGlobal('requestIdleCallback', (run: () => void) => {
      run();
      return 1;
    });
    const root = rootWithFrame();
    liftFrame(root);
    const frame = document.querySelector<HTMLElement>('.kf');
    expect(frame?.parentElement).toBe(document.body);
    expect(frame?.classList.contains('kf-over')).toBe(true);
    const idle = vi.fn();
    whenIdle(idle);
    expect(idle).not.toHaveBeenCalled();

    dropFrame();
    expect(idle).toHaveBeenCalledTimes(1);
    // Out of sight and no longer "the frame", but still in the document: its pictures stay painted.
    expect(frame?.classList.contains('kf-gone')).toBe(true);
    expect(document.querySelector('[data-frame]')).toBeNull();
    expect(frame?.isConnected).toBe(true);

    window.dispatchEvent(new Event('pointerdown'));
    expect(frame?.isConnected).toBe(false);
  });

  it('does nothing for a page the HTML drew no frame for: idle work runs at once', () => {
    vi.stubGlobal('requestIdleCallback', (run: () => void) => {
      run();
      return 1;
    });
    const root = document.createElement('div');
    document.body.appendChild(root);
    liftFrame(root);
    const idle = vi.fn();
    whenIdle(idle);
    expect(idle).toHaveBeenCalledTimes(1);
  });
});
