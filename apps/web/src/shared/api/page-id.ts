/**
 * This page load's id. Its writes send it (`PAGE_HEADER`) and so do its socket's handshakes: the server then
 * leaves the events the page caused itself out of what it says the page missed, and does not echo a message the
 * page sent over HTTP to the page's own socket. Made with
 * `getRandomValues`, which a phone on the LAN's plain http has (`randomUUID` needs a secure context).
 */
export const PAGE_ID: string = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
  byte.toString(16).padStart(2, '0'),
).join('');
