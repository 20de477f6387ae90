import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_FLAGS } from '../../../../scripts/serve-env.mjs';
import {
  COMPILATION_HINTS_FLAG,
  HOT_FUNCTIONS,
  type HotFunctions,
  pgliteWasmFacts,
  pgliteWasmPath,
  wasmApi,
  withCompilationHints,
} from './pglite-wasm.ts';

const list = JSON.parse(fs.readFileSync(HOT_FUNCTIONS, 'utf8')) as HotFunctions;

/** The `compilationHints` section's entries of a module (one byte per declared function). */
function hintsOf(bytes: Uint8Array): Uint8Array {
  const [section] = wasmApi.Module.customSections(new wasmApi.Module(bytes), 'compilationHints');
  if (!section) throw new Error('no compilationHints section');
  const view = new Uint8Array(section);
  let p = 0;
  while ((view[p] as number) & 0x80) p++; // the count, LEB128
  return view.subarray(p + 1);
}

describe('PGlite with its hot functions optimized', () => {
  it('ships a list made for the installed PGlite (npm run pglite:hot after an upgrade)', () => {
    const { pglite, sha256, imports, declared } = list;
    expect({ pglite, sha256, imports, declared }).toEqual(pgliteWasmFacts());
    // The parser's ~600 MB compile is what the list leaves out; nothing left out is in it.
    expect(Object.values(list.excluded).some((mb) => mb > 100)).toBe(true);
    expect(list.hot.filter((i) => String(i) in list.excluded)).toEqual([]);
    expect(list.hot.length).toBeGreaterThan(300);
  });

  it('inserts one hint per declared function before the code section, the hot ones optimized', () => {
    const bytes = fs.readFileSync(pgliteWasmPath());
    const hot = new Set(list.hot);
    const hinted = withCompilationHints(bytes, hot, list.imports, list.declared);
    expect(wasmApi.validate(hinted)).toBe(true);
    const hints = hintsOf(hinted);
    expect(hints.length).toBe(list.declared);
    const optimized = [...hints.keys()].filter((i) => hints[i] === 0x20).map((i) => i + list.imports);
    expect(optimized).toEqual([...list.hot].sort((a, b) => a - b));
    expect(hints.filter((h) => h !== 0 && h !== 0x20).length).toBe(0);
  });

  it('the server starts with the flag that makes V8 read the hints', () => {
    expect(SERVER_FLAGS).toContain(COMPILATION_HINTS_FLAG);
    expect(SERVER_FLAGS).toContain('--liftoff-only');
  });

  // A Node whose V8 stopped reading the hints (or an upgrade that renumbered the functions) fails here.
  it('under the server flags V8 optimizes the listed functions it runs, and only those', () => {
    const script = path.join(import.meta.dirname, 'pglite-wasm.probe.ts');
    const run = (flags: string[], ms: number[]) =>
      spawnSync(
        process.execPath,
        [...flags, '--trace-wasm-compilation-times', '--import', 'tsx', script, ...ms.map(String)],
        {
          encoding: 'utf8',
          cwd: path.join(import.meta.dirname, '../../../..'),
          timeout: 60_000,
        },
      );
    const optimized = (stdout: string) => {
      const seen = new Set<number>();
      for (const m of stdout.matchAll(/^Compiled function 0x[0-9a-f]+#(\d+) using TurboFan/gm))
        seen.add(Number(m[1]));
      return seen;
    };
    const hinted = run(SERVER_FLAGS, [1500, 1500]);
    expect(hinted.status, hinted.stderr).toBe(0);
    expect(hinted.stdout).toContain('probe: hinted');
    const fast = optimized(hinted.stdout);
    expect(fast.size).toBeGreaterThan(100);
    const hot = new Set(list.hot);
    expect([...fast].filter((i) => !hot.has(i))).toEqual([]);

    // Without the flag the same statements leave every function on the baseline compiler.
    const plain = run(
      SERVER_FLAGS.filter((f) => f !== COMPILATION_HINTS_FLAG),
      [1000, 0],
    );
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('probe: plain');
    expect(optimized(plain.stdout).size).toBe(0);
  }, 120_000);
});
