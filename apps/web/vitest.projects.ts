import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { testFiles } from '../../scripts/test-files.mjs';

/**
 * The web tests as two projects of the root config (vitest.config.ts). Most share one jsdom and one module graph
 * per worker (`isolate: false`): a fresh jsdom and a fresh import of React, the router and the app's modules for
 * each of ~150 files cost several times the tests themselves (the web suite took 111 s isolated and 28 s shared
 * on this 2-core machine). Testing Library unmounts after every test and `restoreMocks` undoes spies, so what a
 * test renders or spies on does not outlive it. A file that replaces a module (`vi.mock`) changes the module
 * graph for every file imported after it in the same worker, so those files run isolated (`web-isolated`).
 * `--project 'web*'` runs both.
 */
const root = import.meta.dirname;
const replacesModules = /\bvi\.(mock|doMock)\(/;

// Each project names its files, so that a run's own `--exclude` still applies (a project's `exclude` replaces it).
const files = testFiles(path.join(root, 'src'), /\.test\.tsx?$/).map((file) => path.relative(root, file));
const isolated = files.filter((file) => replacesModules.test(fs.readFileSync(path.join(root, file), 'utf8')));
const shared = files.filter((file) => !isolated.includes(file));

function project(test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration {
  return {
    root,
    plugins: [react()],
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      restoreMocks: true,
      // Above the five seconds `findBy…` may wait (src/test/setup.ts), so a slow wait fails as a wait, not a timeout.
      testTimeout: 15_000,
      ...test,
    },
  };
}

export const webProjects = [
  project({ name: 'web', include: shared, isolate: false }),
  project({ name: 'web-isolated', include: isolated }),
];
