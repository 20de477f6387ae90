import { loopbackOnly, startMediaStack } from './stack.ts';

/** Starts the stack once; tests read its addresses from the environment the workers inherit. */
export default async function globalSetup() {
  if (!loopbackOnly() && !process.env.KADR_MEDIA_E2E_ALLOW_NETWORK) {
    throw new Error('media e2e must run in a loopback-only network namespace: use npm run test:e2e:media');
  }
  const stack = await startMediaStack({
    // The calls flows drive the real web app; a shortened ring timeout lets "missed" happen in seconds.
    web: true,
    env: { CALL_RING_TIMEOUT_MS: process.env.KADR_MEDIA_CALL_RING_TIMEOUT_MS ?? '60000' },
    log: (line) => {
      if (process.env.KADR_MEDIA_E2E_VERBOSE) console.log(line);
    },
  });
  process.env.KADR_MEDIA_API_URL = stack.apiUrl;
  process.env.KADR_MEDIA_HARNESS_URL = stack.harnessUrl;
  process.env.KADR_MEDIA_LIVEKIT_URL = stack.livekitUrl;
  process.env.KADR_MEDIA_API_KEY = stack.apiKey;
  process.env.KADR_MEDIA_API_SECRET = stack.apiSecret;
  return () => stack.stop();
}
