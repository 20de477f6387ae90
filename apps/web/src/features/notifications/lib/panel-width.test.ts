import { beforeEach, describe, expect, it } from 'vitest';
import { clampWidth, storedWidth, storeWidth } from './panel-width.ts';

describe('notifications panel width', () => {
  beforeEach(() => localStorage.clear());

  it('defaults to 400 and keeps 300–600', () => {
    expect(storedWidth()).toBe(400);
    expect(clampWidth(100)).toBe(300);
    expect(clampWidth(900)).toBe(600);
    expect(clampWidth(Number.NaN)).toBe(400);
  });

  it('is remembered, clamped', () => {
    storeWidth(512.4);
    expect(storedWidth()).toBe(512);
    localStorage.setItem('notifications_panelWidth', '5000');
    expect(storedWidth()).toBe(600);
    localStorage.setItem('notifications_panelWidth', 'wide');
    expect(storedWidth()).toBe(400);
  });
});
