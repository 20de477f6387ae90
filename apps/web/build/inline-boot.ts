import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Plugin, Rollup } from 'vite';
import { FRAME_ROUTES } from '../src/app/boot/first-requests.ts';
import { FRAME_CSS, FRAME_KINDS, frameHtml } from '../src/app/boot/frame.ts';

/** Where the server puts the frame of the requested page (apps/server/src/plugins/web.ts). */
export const FRAME_SLOT = '<!--kadr-frame-->';
/** The frames by kind of page, written beside index.html for the server. */
export const FRAMES_FILE = 'frames.json';

const bootEntry = fileURLToPath(new URL('../src/app/boot/boot-script.ts', import.meta.url));

/** The boot script as one small classic script (no imports left: it runs before any module). */
export async function bootScript(): Promise<string> {
  const out = await build({
    entryPoints: [bootEntry],
    bundle: true,
    format: 'iife',
    minify: true,
    write: false,
    target: 'es2020',
    legalComments: 'none',
  });
  return (out.outputFiles[0]?.text ?? '').trim();
}

function asset(bundle: Rollup.OutputBundle | undefined, href: string): Rollup.OutputAsset | undefined {
  const item = bundle?.[href.replace(/^\//, '')];
  return item?.type === 'asset' ? item : undefined;
}

/**
 * index.html with the styles and the boot script in its head and the frame slot in `#root`. The inserted
 * text goes in as it is: a replacement string would read `$\``, `$'` and `$&` in the minified script (a
 * route pattern ends in `/?$` before a template's backtick) as "the text around the match", and break it.
 */
export function inlineIntoHtml(html: string, styles: string[], script: string): string {
  const head = `<style>${styles.join('\n')}${FRAME_CSS.replace(/\n/g, '')}</style>\n    <script>${script}</script>\n    <title>`;
  return html
    .replace('<title>', () => head)
    .replace('<div id="root"></div>', () => `<div id="root">${FRAME_SLOT}</div>`);
}

/**
 * The first paint without the scripts: index.html gets the boot script inline in its head
 * (app/boot/boot-script.ts: the stored theme, the page's first requests), the entry's stylesheets and the
 * frame's critical CSS inline (no render-blocking request), and a slot in `#root` where the server puts
 * the frame of the page asked for (`frames.json`).
 */
export function inlineBoot(): Plugin {
  let frames: Record<string, string> = {};
  return {
    name: 'kadr-inline-boot',
    apply: 'build',
    buildStart() {
      frames = Object.fromEntries(FRAME_KINDS.map((kind) => [kind, frameHtml(kind)]));
    },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: FRAMES_FILE,
        source: JSON.stringify({ slot: FRAME_SLOT, routes: FRAME_ROUTES, frames }),
      });
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        const script = await bootScript();
        if (script.includes('</script')) throw new Error('the boot script must not contain </script');
        const styles: string[] = [];
        const withoutLinks = html.replace(
          /<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>\s*/g,
          (link: string, href: string) => {
            const css = asset(ctx.bundle, href);
            if (!css) return link;
            styles.push(String(css.source));
            // Left in, disabled (never fetched nor applied): Vite's preload helper skips a stylesheet a link in
            // the document already names. Without it, every lazy chunk that shares the entry's CSS inserted it
            // again, a request and a style recalculation of the whole page for styles already in force.
            return `<link rel="stylesheet" href="${href}" disabled>\n    `;
          },
        );
        return inlineIntoHtml(withoutLinks, styles, script);
      },
    },
  };
}
