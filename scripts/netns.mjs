// The loopback-only network namespace both browser runners use (scripts/e2e.mjs, scripts/e2e-media.mjs).
// Chromium reports navigator.onLine = false when no interface but `lo` is up, and the app then rightly holds its
// requests as offline; a veth pair with both ends inside the namespace and a loopback-range address (no IPv6
// link-local: addrgenmode none) makes it see a network that still reaches nothing beyond the namespace.
export const NETNS_SETUP = [
  'ip link set lo up',
  'ip link add kadr0 type veth peer name kadr1',
  'ip link set kadr0 addrgenmode none',
  'ip link set kadr1 addrgenmode none',
  'ip addr add 127.0.0.2/32 dev kadr0',
  'ip link set kadr0 up',
  'ip link set kadr1 up',
].join(' && ');

// WebKitGTK asks GLib's network monitor, which reports offline (navigator.onLine = false) without a default
// route. A default route through the veth pair satisfies it; what it routes reaches the peer end, which has no
// address and nothing behind it, so still nothing leaves. Only the engines suite adds it (scripts/e2e-engines.mjs):
// with it, Chromium's attempts to reach outside hosts would wait out timeouts instead of failing at once.
export const NETNS_DEFAULT_ROUTE = 'ip route add default dev kadr0';
