// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bootScript, FRAME_SLOT, inlineIntoHtml } from '../../../build/inline-boot.ts';

const indexHtml = readFileSync(new URL('../../../index.html', import.meta.url), 'utf8');

describe('the boot script inlined into index.html', () => {
  it('goes in byte for byte, however its minified text reads (`$`, backticks)', () => {
    const script = 'var p=`^/(?!(?:a|b)/?$`+"$&"+"$\'";';
    const html = inlineIntoHtml(indexHtml, ['body{margin:0}'], script);
    expect(html).toContain(`<script>${script}</script>`);
    expect(html.match(/<!doctype html>/gi)).toHaveLength(1);
    expect(html).toContain(`<div id="root">${FRAME_SLOT}</div>`);
  });

  it('is the real boot script, whole and parseable, once inlined', async () => {
    const script = await bootScript();
    const html = inlineIntoHtml(indexHtml, [], script);
    const inlined = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(inlined).toBe(script);
    expect(() => new Function(inlined ?? '')).not.toThrow();
  }, 60_000);
});
