import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// `findBy…` and `waitFor` wait for a condition; their default second is short on a loaded 2-core CI machine, where a
// lazily imported component can take longer than that to arrive. A test that never meets its condition still fails.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  globalThis.localStorage?.clear();
});
