import { beforeEach, describe, expect, it } from 'vitest';
import { applyAppearance, applyStoredAppearance } from './appearance.ts';

describe('appearance', () => {
  beforeEach(() => localStorage.clear());

  it('applies the theme and text size at once and restores them before the next first paint', () => {
    const root = document.createElement('html');
    applyAppearance({ theme: 'light', text_size: 'large' }, root);
    expect(root.dataset.theme).toBe('light');
    expect(root.dataset.textSize).toBe('large');
    const next = document.createElement('html');
    applyStoredAppearance(next);
    expect(next.dataset.theme).toBe('light');
    expect(next.dataset.textSize).toBe('large');
  });

  it('falls back to the dark theme when nothing (or garbage) is stored', () => {
    localStorage.setItem('settings_theme', 'neon');
    const root = document.createElement('html');
    applyStoredAppearance(root);
    expect(root.dataset.theme).toBe('dark');
  });
});
