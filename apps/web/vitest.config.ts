import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    // Above the five seconds `findBy…` may wait (src/test/setup.ts), so a slow wait fails as a wait, not a timeout.
    testTimeout: 15_000,
  },
});
