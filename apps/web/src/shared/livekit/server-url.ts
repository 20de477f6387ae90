/**
 * The media server's signalling URL as this page reaches it. The embedded server is handed out as a path on
 * Kadr's own port (`/livekit`): it is then this page's origin over ws, or wss when the page is https — the
 * same address a phone on the LAN opened the app with (docs/adr/0018-lan-media.md).
 */
export function mediaServerUrl(
  url: string,
  page: { protocol: string; host: string } = window.location,
): string {
  if (!url.startsWith('/')) return url;
  return `${page.protocol === 'https:' ? 'wss' : 'ws'}://${page.host}${url}`;
}
