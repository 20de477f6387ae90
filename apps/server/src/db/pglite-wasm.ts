import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot } from '../config.ts';
import { installedPgliteVersion } from './pglite-template.ts';

/**
 * PGlite's Postgres with its hot functions optimized and its SQL parser not (docs/adr/0052-pglite-hot-functions.md).
 *
 * The server runs with `--liftoff-only` (ADR 0041): optimizing one function of Postgres' WASM, the SQL parser,
 * took V8's optimizing compiler ~600 MB for seconds, and V8 has no flag to leave out one function. It does read
 * a module's `compilationHints` section when started with `--experimental-wasm-compilation-hints`: a function
 * whose hint names the optimized top tier is optimized in the background after its first call, even under
 * `--liftoff-only`; every other function stays on the baseline compiler. The list of functions worth it is
 * measured once (`npm run pglite:hot`) and shipped for the PGlite build that made it.
 */
export const HOT_FUNCTIONS = path.join(repoRoot, 'assets/pglite/hot-functions.json');

/** The V8 flag the server starts with (scripts/serve-env.mjs); without it V8 ignores the hints. */
export const COMPILATION_HINTS_FLAG = '--experimental-wasm-compilation-hints';

/** A compiled WebAssembly module, opaque here. */
export type WasmModule = object;

/** Node's WebAssembly API, the part used here (neither @types/node 20 nor the ES libs declare it). */
export const wasmApi = (
  globalThis as unknown as {
    WebAssembly: {
      Module: {
        new (bytes: Uint8Array): WasmModule;
        imports(module: WasmModule): Array<{ kind: string }>;
        customSections(module: WasmModule, name: string): ArrayBuffer[];
      };
      compile(bytes: Uint8Array): Promise<WasmModule>;
      validate(bytes: Uint8Array): boolean;
    };
  }
).WebAssembly;

/** What binds a list to one build of PGlite's Postgres module. */
export interface WasmFacts {
  pglite: string;
  sha256: string;
  /** Functions the module imports: V8 numbers them first, before the module's own. */
  imports: number;
  /** The module's own functions: the hints section has one entry for each. */
  declared: number;
}

export interface HotFunctions extends WasmFacts {
  /** Functions whose optimizing compile needed more compiler memory than this (MB) are left out. */
  maxZoneMb: number;
  /** Left out: function index → MB its optimizing compile took. */
  excluded: Record<string, number>;
  /** Function indices (imports first, as V8 numbers them) to optimize. */
  hot: number[];
}

/** The installed PGlite's Postgres module (beside its entry, as PGlite itself loads it). */
export function pgliteWasmPath(): string {
  return path.join(
    path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')),
    'pglite.wasm',
  );
}

/** The installed module's facts (the list's generator records them; a test compares them). */
export function pgliteWasmFacts(bytes: Uint8Array = fs.readFileSync(pgliteWasmPath())): WasmFacts {
  const module = new wasmApi.Module(bytes);
  const imports = wasmApi.Module.imports(module).filter((i) => i.kind === 'function').length;
  const functionSection = sections(bytes).find((s) => s.id === FUNCTION_SECTION);
  const declared = functionSection ? readU32(bytes, functionSection.start).value : 0;
  return { pglite: installedPgliteVersion(), sha256: sha256(bytes), imports, declared };
}

const FUNCTION_SECTION = 3;
const CODE_SECTION = 10;
/** A hint's byte: strategy (bits 0–1) default, baseline tier (2–3) default, top tier (4–5) optimized. */
const TOP_TIER_OPTIMIZED = 2 << 4;

/**
 * The module with a `compilationHints` custom section inserted before its code section (where V8 requires it):
 * one byte per declared function, the optimized top tier for `hot`, V8's defaults for the rest.
 */
export function withCompilationHints(
  bytes: Uint8Array,
  hot: ReadonlySet<number>,
  imports: number,
  declared: number,
): Uint8Array {
  const code = sections(bytes).find((s) => s.id === CODE_SECTION);
  if (!code) throw new Error('WASM module without a code section');
  const name = new TextEncoder().encode('compilationHints');
  const hints = new Uint8Array(declared);
  for (let i = 0; i < declared; i++) if (hot.has(imports + i)) hints[i] = TOP_TIER_OPTIMIZED;
  const body = [...u32(name.length), ...name, ...u32(declared), ...hints];
  const section = Uint8Array.from([0, ...u32(body.length), ...body]);
  const out = new Uint8Array(bytes.length + section.length);
  out.set(bytes.subarray(0, code.at), 0);
  out.set(section, code.at);
  out.set(bytes.subarray(code.at), code.at + section.length);
  return out;
}

let compiled: Promise<WasmModule | undefined> | undefined;

/**
 * The module to open PGlite with: hinted, once per process, when the server runs with the hints flag and the
 * shipped list was made for the installed module; otherwise undefined, and PGlite compiles its own (every
 * function on the baseline compiler under `--liftoff-only`, as before).
 */
export function pgliteWasmModule(): Promise<WasmModule | undefined> {
  compiled ??= (async () => {
    if (!process.execArgv.includes(COMPILATION_HINTS_FLAG) || !fs.existsSync(HOT_FUNCTIONS)) return undefined;
    const list = JSON.parse(fs.readFileSync(HOT_FUNCTIONS, 'utf8')) as HotFunctions;
    const bytes = fs.readFileSync(pgliteWasmPath());
    if (sha256(bytes) !== list.sha256) return undefined;
    return wasmApi.compile(withCompilationHints(bytes, new Set(list.hot), list.imports, list.declared));
  })();
  return compiled;
}

/** PGlite's options for its module: `{ pgliteWasmModule }` when hinted, nothing otherwise. */
export async function pgliteWasmOptions(): Promise<{ pgliteWasmModule?: WasmModule }> {
  const module = await pgliteWasmModule();
  return module ? { pgliteWasmModule: module } : {};
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The module's sections: id, where the section starts (`at`) and where its contents start. */
function sections(bytes: Uint8Array): Array<{ id: number; at: number; start: number }> {
  const out: Array<{ id: number; at: number; start: number }> = [];
  let p = 8; // magic and version
  while (p < bytes.length) {
    const at = p;
    const id = bytes[p++] as number;
    const size = readU32(bytes, p);
    out.push({ id, at, start: size.next });
    p = size.next + size.value;
  }
  return out;
}

function readU32(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  let p = at;
  for (;;) {
    const b = bytes[p++] as number;
    value |= (b & 0x7f) << shift;
    if (!(b & 0x80)) break;
    shift += 7;
  }
  return { value: value >>> 0, next: p };
}

/** Unsigned LEB128. */
function u32(n: number): number[] {
  const out: number[] = [];
  let rest = n >>> 0;
  do {
    let b = rest & 0x7f;
    rest >>>= 7;
    if (rest) b |= 0x80;
    out.push(b);
  } while (rest);
  return out;
}
