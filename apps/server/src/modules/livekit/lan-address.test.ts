import type os from 'node:os';
import { describe, expect, it } from 'vitest';
import { lanAddress, mediaAddresses } from './lan-address.ts';

const v4 = (address: string, internal: boolean): os.NetworkInterfaceInfo => ({
  address,
  netmask: '255.255.255.0',
  family: 'IPv4',
  mac: '00:00:00:00:00:00',
  internal,
  cidr: `${address}/24`,
});
const v6 = (address: string): os.NetworkInterfaceInfo => ({
  address,
  netmask: 'ffff:ffff:ffff:ffff::',
  family: 'IPv6',
  mac: '00:00:00:00:00:00',
  internal: false,
  cidr: `${address}/64`,
  scopeid: 0,
});
const lo = [v4('127.0.0.1', true), { ...v6('::1'), internal: true }];

describe('the LAN address the embedded media server advertises', () => {
  it('is the IPv4 address of the first non-loopback interface (192.168.x on wlan0)', () => {
    const interfaces = {
      lo,
      wlan0: [v6('fe80::1'), v4('192.168.1.23', false)],
      docker0: [v4('172.17.0.1', false)],
    };
    expect(lanAddress(interfaces)).toEqual({ iface: 'wlan0', address: '192.168.1.23' });
    expect(mediaAddresses({ nodeIp: null, bind: null }, interfaces)).toEqual({
      nodeIp: '192.168.1.23',
      bind: ['127.0.0.1', '192.168.1.23'],
      from: 'lan',
      iface: 'wlan0',
    });
  });

  it('falls back to 127.0.0.1 on a machine with loopback only (the e2e namespace without its veth)', () => {
    expect(lanAddress({ lo })).toBeNull();
    expect(mediaAddresses({ nodeIp: null, bind: null }, { lo })).toEqual({
      nodeIp: '127.0.0.1',
      bind: ['127.0.0.1'],
      from: 'loopback',
      iface: null,
    });
  });

  it('takes a non-loopback interface even when its address is in 127.0.0.0/8 (the e2e veth stand-in)', () => {
    expect(lanAddress({ lo, 'kadr-veth0': [v4('127.0.0.2', false)] })).toEqual({
      iface: 'kadr-veth0',
      address: '127.0.0.2',
    });
  });

  it('lets LIVEKIT_NODE_IP and LIVEKIT_BIND win', () => {
    const interfaces = { lo, eth0: [v4('10.0.0.5', false)] };
    expect(mediaAddresses({ nodeIp: '192.168.50.2', bind: null }, interfaces)).toMatchObject({
      nodeIp: '192.168.50.2',
      bind: ['127.0.0.1', '192.168.50.2'],
      from: 'LIVEKIT_NODE_IP',
    });
    expect(mediaAddresses({ nodeIp: '127.0.0.1', bind: ['0.0.0.0'] }, interfaces)).toMatchObject({
      nodeIp: '127.0.0.1',
      bind: ['0.0.0.0'],
    });
  });
});
