import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkOutbound,
  isPublicAddress,
  OutboundRefused,
  outboundRequest,
  type Resolve,
} from './outbound.ts';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a00:1',
    '2002:c0a8:101::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    'fe80::1%eth0',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('checkOutbound', () => {
  it('refuses a host when any of its addresses is not public, and one whose answer changed to one', async () => {
    const mixed: Resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await expect(
      checkOutbound('https://push.test/x', { allowInsecure: false, resolve: mixed }),
    ).rejects.toThrow(OutboundRefused);
    // DNS rebinding: public when saved, internal when sent.
    const answers = ['93.184.216.34', '127.0.0.1'];
    const rebinding: Resolve = async () => [{ address: answers.shift() as string, family: 4 }];
    const policy = { allowInsecure: false, resolve: rebinding };
    await expect(checkOutbound('https://push.test/x', policy)).resolves.toMatchObject({
      address: '93.184.216.34',
    });
    await expect(checkOutbound('https://push.test/x', policy)).rejects.toThrow(OutboundRefused);
  });

  it('refuses http unless insecure endpoints are allowed', async () => {
    const resolve: Resolve = async () => [{ address: '93.184.216.34', family: 4 }];
    await expect(checkOutbound('http://push.test/x', { allowInsecure: false, resolve })).rejects.toThrow(
      OutboundRefused,
    );
    await expect(
      checkOutbound('http://push.test/x', { allowInsecure: true, resolve }),
    ).resolves.toBeDefined();
  });
});

describe('outboundRequest', () => {
  let server: http.Server;
  let port: number;
  const seen: { host: string | undefined; url: string | undefined }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ host: req.headers.host, url: req.url });
      res.writeHead(req.url === '/moved' ? 302 : 201, req.url === '/moved' ? { location: '/elsewhere' } : {});
      res.end('body');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('connects to the address that was checked, whatever the name would resolve to now', async () => {
    // "push.invalid" has no DNS record: reaching the listener proves the pinned address was used.
    let lookups = 0;
    const resolve: Resolve = async () => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const init = { method: 'POST', headers: {}, body: new Uint8Array([1, 2]), timeoutMs: 5000 };
    const res = await outboundRequest(`http://push.invalid:${port}/p`, init, {
      allowInsecure: true,
      resolve,
    });
    expect(res.status).toBe(201);
    expect(lookups).toBe(1);
    expect(seen.at(-1)).toEqual({ host: `push.invalid:${port}`, url: '/p' });
  });

  it('answers a redirect as it is, without following it', async () => {
    const init = { method: 'POST', headers: {}, body: null, timeoutMs: 5000 };
    const res = await outboundRequest(`http://127.0.0.1:${port}/moved`, init, { allowInsecure: true });
    expect(res).toEqual({ status: 302, location: '/elsewhere' });
    expect(seen.some((s) => s.url === '/elsewhere')).toBe(false);
  });
});
