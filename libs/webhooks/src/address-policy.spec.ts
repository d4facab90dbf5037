import fc from 'fast-check';
import { BlockList, isIP } from 'node:net';
import {
  DEVELOPMENT_POLICY,
  STRICT_POLICY,
  addressRange,
  judgeAddress,
  type AddressPolicy,
  type AddressRule,
} from './address-policy';

const EVERYTHING: AddressPolicy = { allowLoopback: true, allowPrivate: true, allowHttp: true };
const POLICIES = [STRICT_POLICY, DEVELOPMENT_POLICY, EVERYTHING];

describe('judgeAddress', () => {
  it.each<[string, AddressRule]>([
    ['169.254.169.254', 'link-local'],
    ['fd00:ec2::254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2002:7f00:1::1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['100::1', 'reserved'],
  ])('refuses %s as %s in production', (address, rule) => {
    expect(judgeAddress(address, STRICT_POLICY)).toEqual({ allowed: false, rule });
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'allows the public address %s',
    (address) => {
      for (const policy of POLICIES) expect(judgeAddress(address, policy)).toEqual({ allowed: true });
    },
  );

  it('opens loopback and private ranges only when configured to', () => {
    expect(judgeAddress('127.0.0.1', DEVELOPMENT_POLICY)).toEqual({ allowed: true });
    expect(judgeAddress('::ffff:127.0.0.1', DEVELOPMENT_POLICY)).toEqual({ allowed: true });
    expect(judgeAddress('10.0.0.1', DEVELOPMENT_POLICY)).toEqual({ allowed: false, rule: 'private' });
    for (const address of ['10.0.0.1', '100.64.0.1', 'fd12::1']) {
      expect(judgeAddress(address, { ...STRICT_POLICY, allowPrivate: true })).toEqual({ allowed: true });
    }
    expect(judgeAddress('127.0.0.1', { ...STRICT_POLICY, allowPrivate: true })).toEqual({ allowed: false, rule: 'loopback' });
  });

  it('never allows link-local, multicast, unspecified or reserved addresses, whatever the configuration', () => {
    for (const address of ['169.254.169.254', 'fd00:ec2::254', 'fe80::1', '224.0.0.1', '0.0.0.0', '::', '192.0.2.1']) {
      expect(judgeAddress(address, EVERYTHING).allowed).toBe(false);
    }
  });

  it.each(['', 'localhost', '1.2.3', '01.2.3.4', '1.2.3.4 ', '::1%', '999.1.1.1', '\u0000', 'x'.repeat(100_000)])(
    'refuses %j as no address',
    (text) => {
      expect(judgeAddress(text, EVERYTHING)).toEqual({ allowed: false, rule: 'invalid-address' });
    },
  );
});

/**
 * IANA's special-purpose registries, written out again here as the independent statement the implementation is held
 * to: every address in a row gets that row's rule, and every other address of 2000::/3 or IPv4 is public.
 */
const IANA_V4: [string, number, AddressRule][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const IANA_V6: [string, number, AddressRule][] = [
  ['fe80::', 10, 'link-local'],
  ['fc00::', 7, 'unique-local'],
  ['ff00::', 8, 'multicast'],
  ['2001::', 23, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['2002::', 16, 'reserved'],
  ['3fff::', 20, 'reserved'],
  ['::', 96, 'reserved'],
  ['100::', 64, 'reserved'],
  ['fec0::', 10, 'reserved'],
];

function oracleV4(address: string): AddressRule | undefined {
  return IANA_V4.find(([network, prefix]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, 'ipv4');
    return list.check(address, 'ipv4');
  })?.[2];
}

/** An address of the subnet with random host bits: the network's bits, then random ones. */
function inSubnet(network: string, prefix: number, bits: 32 | 128) {
  const base = bits === 32 ? v4ToBigInt(network) : v6ToBigInt(network);
  const hostBits = BigInt(bits - prefix);
  return fc.bigInt({ min: 0n, max: (1n << hostBits) - 1n }).map((host) => {
    const value = ((base >> hostBits) << hostBits) | host;
    return bits === 32 ? bigIntToV4(value) : bigIntToV6(value);
  });
}

const v4ToBigInt = (address: string) => address.split('.').reduce((sum, octet) => (sum << 8n) | BigInt(octet), 0n);
const bigIntToV4 = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
function v6ToBigInt(address: string): bigint {
  const [head, tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const all = [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return all.reduce((sum, group) => (sum << 16n) | BigInt(`0x${group}`), 0n);
}
const bigIntToV6 = (value: bigint) =>
  Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');

describe('addressRange, held to the IANA registries', () => {
  it('agrees with a BlockList of the IPv4 registry on any IPv4 address', () => {
    fc.assert(fc.property(fc.ipV4(), (address) => expect(addressRange(address)).toBe(oracleV4(address))));
  });

  it('gives every address inside a registry range that range’s rule', () => {
    const v4 = fc.oneof(...IANA_V4.map(([network, prefix, rule]) => inSubnet(network, prefix, 32).map((a) => [a, rule] as const)));
    const v6 = fc.oneof(...IANA_V6.map(([network, prefix, rule]) => inSubnet(network, prefix, 128).map((a) => [a, rule] as const)));
    fc.assert(
      fc.property(fc.oneof(v4, v6), ([address, rule]) => {
        // ::/96 holds :: and ::1, which have rules of their own.
        if (address === '0:0:0:0:0:0:0:0' || address === '0:0:0:0:0:0:0:1') return;
        expect(addressRange(address)).toBe(rule);
      }),
    );
  });

  it('judges an IPv4 address the same however IPv6 carries it (mapped, NAT64)', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        const hex = bigIntToV6(0xffff00000000n | v4ToBigInt(address));
        for (const carried of [`::ffff:${address}`, hex, `64:ff9b::${address}`]) {
          expect(addressRange(carried)).toBe(addressRange(address));
        }
      }),
    );
  });

  it('judges an IPv6 address the same in any of its spellings', () => {
    fc.assert(
      fc.property(fc.ipV6(), (address) => {
        const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
        expect(addressRange(address)).toBe(addressRange(canonical));
        expect(addressRange(bigIntToV6(v6ToBigInt(canonical)))).toBe(addressRange(canonical));
      }),
    );
  });

  it('only ever allows more when the policy opens more, and never link-local', () => {
    const policy = fc.record({ allowLoopback: fc.boolean(), allowPrivate: fc.boolean(), allowHttp: fc.boolean() });
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), policy, (address, open) => {
        if (judgeAddress(address, STRICT_POLICY).allowed) expect(judgeAddress(address, open).allowed).toBe(true);
        if (addressRange(address) === 'link-local') expect(judgeAddress(address, open).allowed).toBe(false);
      }),
    );
  });

  it('never throws, and calls only IP addresses addresses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom(...'0123456789abcdef:.%') })), (text) => {
        const rule = addressRange(text);
        expect(rule === 'invalid-address').toBe(isIP(text) === 0);
      }),
    );
  });
});
