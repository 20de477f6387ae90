import type { Plugin } from 'vite';

/** V8's explicit compile hint (Chrome 136+): compile every function of the file eagerly, off the main thread. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** The views a page opens with (lazy chunks of their own): routes, the feed, the messenger, a chat, a story. */
const PAGE_VIEWS =
  /\/src\/(routes\/\w+Route|.*\/(HomePage|MediaView|MessengerView|RoomChatWindow|StoryViewer))\.tsx$/;

/** Below this a chunk compiles lazily in well under a frame; a hint would not pay for itself. */
const MIN_BYTES = 16 * 1024;

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  code: string;
}

/**
 * The chunks that run in full as a page opens: the entry, the page views, and what they import statically
 * — at least MIN_BYTES each. Feature code loaded at idle or on a press (calls, the story editor, media
 * libraries) is left to lazy compilation: most of it may never run.
 */
export function chunksToHint(chunks: ChunkLike[]): string[] {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const picked = new Set<string>();
  const visit = (chunk: ChunkLike) => {
    if (picked.has(chunk.fileName)) return;
    picked.add(chunk.fileName);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      if (imported) visit(imported);
    }
  };
  for (const chunk of chunks) if (chunk.isEntry || PAGE_VIEWS.test(chunk.facadeModuleId ?? '')) visit(chunk);
  return [...picked].filter((name) => (byName.get(name)?.code.length ?? 0) >= MIN_BYTES);
}

/**
 * Puts V8's explicit compile hint on the first line of the chunks a page runs as it opens. Without it V8
 * compiles each function lazily on its first call, on the main thread: a first visit's trace at 4× CPU spent
 * 760–830 ms (/home) and 840–1,170 ms (a chat) in V8.CompileCode there, most of it inside the long tasks
 * that make up Total Blocking Time. With the hint the script streamer compiles the file's functions on a
 * background thread while the file downloads (entry only: 400–490 and 390–510 ms left on the main thread).
 *
 * The hint must come before any code, so it is added last (after Vite puts its preload map at the top), and
 * the source map, already an asset of its own here (sourcemap: 'hidden'), gets one empty line in front.
 * The file name's hash is left as it is: the hint changes how V8 compiles the file, not what it does.
 */
export function compileHints(): Plugin {
  return {
    name: 'kadr-compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        for (const name of chunksToHint(chunks)) {
          const chunk = bundle[name];
          if (chunk?.type !== 'chunk') continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          const map = bundle[`${name}.map`];
          if (map?.type !== 'asset') continue;
          const json = JSON.parse(String(map.source)) as { mappings: string };
          json.mappings = `;${json.mappings}`;
          map.source = JSON.stringify(json);
        }
      },
    },
  };
}
