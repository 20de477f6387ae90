import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Suites that need a service which is not running (Redis for the two-node suites) write their name to
 * one file; at the end of the run the missing coverage is said in one loud line, so a green run without
 * Redis cannot pass for a full one. CI (`.ci/run`) names the file in KADR_SKIP_REPORT and fails when it
 * is not empty.
 */
export function setup() {
  const given = process.env.KADR_SKIP_REPORT;
  const file = given || path.join(os.tmpdir(), `kadr-skipped-${process.pid}.txt`);
  process.env.KADR_SKIP_REPORT = file;
  fs.writeFileSync(file, '');
  return () => {
    const skipped = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    if (skipped.length > 0)
      console.warn(
        `\n\x1b[41m\x1b[37m NOT RUN \x1b[0m ${skipped.length} suite(s) skipped for a missing service: ${[...new Set(skipped)].join('; ')}\n`,
      );
    if (!given) fs.rmSync(file, { force: true });
  };
}
