import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// `findBy…` and `waitFor` wait for a condition; their default second is short on a loaded 2-core CI machine, where a
// lazily imported component can take longer than that to arrive. A test that never meets its condition still fails.
configure({ asyncUtilTimeout: 5000 });

// Most files share a worker's jsdom and module registry (apps/web/vitest.projects.ts). Each file still gets the
// app's own modules fresh, as in an isolated run, so no store, cache or module-level state outlives its file:
// this runs before each file's imports. Packages (React, Testing Library) stay loaded; they keep no state of ours.
vi.resetModules();

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
});
