import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * WCAG AA for the theme palettes in global.css: every text colour holds 4.5:1 on every surface it is
 * drawn on, in the dark theme, the light theme and 'system' on a light device (which must repeat the
 * light values). axe in the browser suite checks the pages; this names the token that broke.
 */

const css = readFileSync(fileURLToPath(import.meta.resolve('./global.css')), 'utf8');

function block(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block in global.css`);
  const body = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries(
    [...body.matchAll(/(--color-[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value?.trim()]),
  );
}

function luminance(hex: string): number {
  const value = hex.replace('#', '');
  const full = value.length === 3 ? [...value].map((c) => c + c).join('') : value;
  const channel = (i: number) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

type Palette = Record<string, string>;

function token(palette: Palette, name: string): string {
  const value = palette[name];
  if (!value) throw new Error(`${name} is not defined`);
  return value;
}

const dark = block(':root');
const light = { ...dark, ...block(":root[data-theme='light']") };
const system = { ...dark, ...block(":root[data-theme='system']") };

const TEXT = [
  '--color-text',
  '--color-text-muted',
  '--color-accent-text',
  '--color-accent-2',
  '--color-danger',
  '--color-success-text',
  ...Array.from({ length: 7 }, (_, i) => `--color-author-${i}`),
];
const SURFACES = ['--color-bg', '--color-surface', '--color-surface-raised', '--color-bubble-own'];

describe('theme palette', () => {
  it.each([
    ['dark', dark],
    ['light', light],
  ])('%s: text colours hold 4.5:1 on every surface', (_theme, palette) => {
    const failing: string[] = [];
    for (const text of TEXT)
      for (const surface of SURFACES) {
        const ratio = contrast(token(palette, text), token(palette, surface));
        if (ratio < 4.5) failing.push(`${text} on ${surface}: ${ratio.toFixed(2)}`);
      }
    expect(failing).toEqual([]);
  });

  it.each([
    ['dark', dark],
    ['light', light],
  ])('%s: white on the accent fill and the on-media accents on black hold 4.5:1', (_theme, palette) => {
    expect(contrast('#ffffff', token(palette, '--color-accent'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#000000', token(palette, '--color-accent-on-media'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#000000', token(palette, '--color-danger-on-media'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#062015', token(palette, '--color-success'))).toBeGreaterThanOrEqual(4.5);
  });

  it("'system' on a light device uses the light theme's values", () => {
    expect(system).toEqual(light);
  });
});
