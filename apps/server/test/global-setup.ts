import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPgTemplate, writePgliteImage } from './helpers.ts';

/**
 * The server suite's global setup. Every test database starts migrated (see `testDatabase` in helpers.ts).
 * Suites that need a service which is not running (Redis for the two-node suites) write their name to
 * one file; at the end of the run the missing coverage is said in one loud line, so a green run without
 * Redis cannot pass for a full one. CI (`.ci/run`) names the file in KADR_SKIP_REPORT and fails when it
 * is not empty.
 */
export async function setup() {
  // Both server projects (apps/server/vitest.projects.ts) name this file, and a run with both calls it twice in
  // one process: the first call prepares everything and owns the teardown, the second finds it ready.
  const ready = `kadr-${process.pid}`;
  if (process.env.KADR_TEST_GLOBALS === ready) return;
  process.env.KADR_TEST_GLOBALS = ready;
  // Every test database starts migrated: without DATABASE_URL an in-memory PGlite loaded from one migrated
  // image, with it a copy of one migrated template database (both dropped at the end).
  const adminUrl = process.env.DATABASE_URL;
  const image = adminUrl ? null : path.join(os.tmpdir(), `kadr-pglite-${process.pid}.tar`);
  let dropTemplate: (() => Promise<void>) | null = null;
  if (image) {
    await writePgliteImage(image);
    process.env.KADR_PGLITE_IMAGE = image;
  } else if (adminUrl) {
    const template = `kadr_template_${process.pid}`;
    dropTemplate = await createPgTemplate(adminUrl, template);
    process.env.KADR_PG_TEMPLATE = template;
  }
  const given = process.env.KADR_SKIP_REPORT;
  const file = given || path.join(os.tmpdir(), `kadr-skipped-${process.pid}.txt`);
  process.env.KADR_SKIP_REPORT = file;
  fs.writeFileSync(file, '');
  return async () => {
    const skipped = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    if (skipped.length > 0)
      console.warn(
        `\n\x1b[41m\x1b[37m NOT RUN \x1b[0m ${skipped.length} suite(s) skipped for a missing service: ${[...new Set(skipped)].join('; ')}\n`,
      );
    if (!given) fs.rmSync(file, { force: true });
    if (image) fs.rmSync(image, { force: true });
    await dropTemplate?.();
  };
}
