#!/usr/bin/env node
// Installs the pinned Node 24 LTS into .tools/node-v<version>/ from the npm registry (npm run setup:node).
// `npm start` does this by itself when the machine's Node is older than 22.
import path from 'node:path';
import { installNode, NODE_VERSION } from './node-provision.mjs';

const root = path.resolve(import.meta.dirname, '..');
try {
  const bin = installNode();
  console.log(`node ${NODE_VERSION} is installed at ${path.relative(root, bin)}`);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
