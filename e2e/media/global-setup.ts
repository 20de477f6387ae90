import { buildWeb, LIVESTREAM_HOST_TIMEOUT_MS, loopbackOnly, startMediaStack } from './stack.ts';

/** Starts the stack once; tests read its addresses from the environment the workers inherit. */
export default async function globalSetup() {
  if (!loopbackOnly() && !process.env.KADR_MEDIA_E2E_ALLOW_NETWORK) {
    throw new Error('media e2e must run in a loopback-only network namespace: use npm run test:e2e:media');
  }
  // The live-stream flows run through the real web app, served by the Kadr server itself.
  const webDist = await buildWeb();
  const stack = await startMediaStack({
    webDist,
    env: {
      // Every flow registers its own users from 127.0.0.1, more than the per-address sign-up limit allows.
      AUTH_RATE_LIMIT_PER_IP: '100000',
      LIVESTREAM_HOST_TIMEOUT_MS: String(LIVESTREAM_HOST_TIMEOUT_MS),
      // A cold host page took 30 s to join at a load average of 60: the never-joined bound is widened.
      LIVESTREAM_HOST_JOIN_TIMEOUT_MS: '180000',
      // The calls flows drive the real web app; a shortened ring timeout lets "missed" happen in seconds.
      CALL_RING_TIMEOUT_MS: process.env.KADR_MEDIA_CALL_RING_TIMEOUT_MS ?? '90000',
      // Accept → both in the media room, before the call fails: 30 s by default, which call setup exceeded
      // on the shared machine at load average 45–50 (25–30 s measured); accept → active's 3 s aim is
      // measured by the calls benchmark (bench/calls-first-frame.ts), not here.
      CALL_CONNECT_TIMEOUT_MS: process.env.KADR_MEDIA_CALL_CONNECT_TIMEOUT_MS ?? '120000',
    },
    log: (line) => {
      if (process.env.KADR_MEDIA_E2E_VERBOSE) console.log(line);
    },
  });
  process.env.KADR_MEDIA_API_URL = stack.apiUrl;
  process.env.KADR_MEDIA_HARNESS_URL = stack.harnessUrl;
  process.env.KADR_MEDIA_LIVEKIT_URL = stack.livekitUrl;
  process.env.KADR_MEDIA_API_KEY = stack.apiKey;
  process.env.KADR_MEDIA_API_SECRET = stack.apiSecret;
  // lan.e2e.ts starts a stack of its own on the same build.
  process.env.KADR_MEDIA_WEB_DIST = webDist;
  return () => stack.stop();
}
