// Which server test files the PostgreSQL run (scripts/test-server-pg.mjs) leaves out, because the run on
// PostgreSQL would repeat them unchanged: the files that never open a database (nothing in them or in the
// test helpers they import reaches `testDatabase`, `createTestApp`, `openDatabase` or DATABASE_URL: the
// tagger's evaluation, the web bundle's build, pure units), and the files marked `@embedded-database-only`
// (every server they start runs on the embedded PGlite, DATABASE_URL emptied). `npm test` runs all of them.
import fs from 'node:fs';
import path from 'node:path';
import { testFiles } from './test-files.mjs';

const DATABASE =
  /\btestDatabase\(|\bcreateTestApp\(|\bopenDatabase\(|DATABASE_URL|\bbuildApp\(|createPgTemplate/;
const EMBEDDED_ONLY = '@embedded-database-only';

/** Whether `file`, or a test helper it imports (transitively, relative imports under a test/ folder), opens a database. */
function opensDatabase(file, memo, seen = new Set()) {
  const known = memo.get(file);
  if (known !== undefined) return known;
  if (seen.has(file)) return false;
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8');
  let opens = DATABASE.test(source);
  for (const match of opens ? [] : source.matchAll(/from '(\.[^']+)'/g)) {
    const target = path.resolve(path.dirname(file), match[1]);
    if (!target.split(path.sep).includes('test') || !fs.existsSync(target)) continue;
    if (opensDatabase(target, memo, seen)) {
      opens = true;
      break;
    }
  }
  memo.set(file, opens);
  return opens;
}

/** The server's test files the PostgreSQL run leaves out, relative to `serverRoot`, each with why. */
export function testsLeftOutOnPostgres(serverRoot) {
  const memo = new Map();
  const files = [...testFiles(path.join(serverRoot, 'src')), ...testFiles(path.join(serverRoot, 'test'))];
  const left = [];
  for (const file of files) {
    const relative = path.relative(serverRoot, file);
    if (fs.readFileSync(file, 'utf8').includes(EMBEDDED_ONLY))
      left.push({ file: relative, why: 'embedded only' });
    else if (!opensDatabase(file, memo)) left.push({ file: relative, why: 'no database' });
  }
  return { total: files.length, left };
}
