import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot } from '../config.ts';

/**
 * A new embedded database starts from a data directory made once by initdb and shipped in the repository
 * (`assets/pglite/empty-datadir.tar.gz`, PGlite's own `dumpDataDir` format), not by running initdb on the
 * user's machine. PGlite's initdb starts a second Postgres WASM instance and the initdb WASM beside the first:
 * a process making a directory peaked at ~600 MB of RSS, and loading the template at ~250 MB (ADR 0041).
 * The template is bound to the PGlite release that made it (its catalog format); with any other release, or
 * without the file, the directory is made by initdb as before. `npm run pglite:template` remakes it.
 */
export const PGLITE_TEMPLATE = path.join(repoRoot, 'assets/pglite/empty-datadir.tar.gz');
/** Beside the archive: `{ "pglite": "<version that made it>", "shared_buffers": "16MB" }`. */
export const PGLITE_TEMPLATE_INFO = path.join(repoRoot, 'assets/pglite/empty-datadir.json');

export interface TemplateInfo {
  pglite: string;
  shared_buffers: string;
}

/** The installed PGlite's version (its package.json, found from its entry). */
export function installedPgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version: string };
      if (pkg.name === '@electric-sql/pglite') return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('@electric-sql/pglite: package.json not found');
    dir = up;
  }
}

/** The template's bytes when it was made by this PGlite with these shared buffers; null otherwise. */
export function pgliteTemplate(sharedBuffers: string): Blob | null {
  if (!fs.existsSync(PGLITE_TEMPLATE) || !fs.existsSync(PGLITE_TEMPLATE_INFO)) return null;
  const info = JSON.parse(fs.readFileSync(PGLITE_TEMPLATE_INFO, 'utf8')) as TemplateInfo;
  if (info.pglite !== installedPgliteVersion() || info.shared_buffers !== sharedBuffers) return null;
  return new Blob([fs.readFileSync(PGLITE_TEMPLATE)]);
}
