// Remakes the embedded database's template (apps/server/src/db/pglite-template.ts): initdb once, here, with the
// server's settings, dumped in PGlite's own format beside a note of the PGlite release that made it.
// `npm run pglite:template` after upgrading @electric-sql/pglite (a test fails until it is run).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, PGLITE_SHARED_BUFFERS } from '../apps/server/src/db/database.ts';
import {
  installedPgliteVersion,
  PGLITE_TEMPLATE,
  PGLITE_TEMPLATE_INFO,
  type TemplateInfo,
} from '../apps/server/src/db/pglite-template.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-pglite-template-'));
try {
  // Made by initdb, not from the old template: moved away while it runs.
  const pgdata = path.join(dir, 'pg');
  const stash = `${PGLITE_TEMPLATE_INFO}.old`;
  if (fs.existsSync(PGLITE_TEMPLATE_INFO)) fs.renameSync(PGLITE_TEMPLATE_INFO, stash);
  try {
    await (await openDatabase({ databaseUrl: null, pgliteDir: pgdata })).close();
  } finally {
    if (fs.existsSync(stash)) fs.rmSync(stash);
  }
  const pglite = new PGlite(pgdata);
  await pglite.waitReady;
  const archive = await pglite.dumpDataDir('gzip');
  await pglite.close();
  fs.mkdirSync(path.dirname(PGLITE_TEMPLATE), { recursive: true });
  fs.writeFileSync(PGLITE_TEMPLATE, Buffer.from(await archive.arrayBuffer()));
  const info: TemplateInfo = { pglite: installedPgliteVersion(), shared_buffers: PGLITE_SHARED_BUFFERS };
  fs.writeFileSync(PGLITE_TEMPLATE_INFO, `${JSON.stringify(info, null, 2)}\n`);
  console.log(
    `${path.relative(process.cwd(), PGLITE_TEMPLATE)}: PGlite ${info.pglite}, ${fs.statSync(PGLITE_TEMPLATE).size} bytes`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
