/**
 * Which IP addresses a webhook may be sent to: the rule against server-side request forgery, judged on every
 * address a delivery would connect to. The ranges are IANA's special-purpose registries; node's BlockList does the
 * matching, and it judges an IPv4-mapped IPv6 address (::ffff:a.b.c.d) by the IPv4 rules.
 */
import { BlockList, isIP } from 'node:net';

/** What configuration may open up. Link-local (cloud metadata) and the rest are never allowed. */
export interface AddressPolicy {
  /** This machine: a local receiver in development. */
  allowLoopback: boolean;
  /** Private networks (10/8, 172.16/12, 192.168/16), carrier-grade NAT and IPv6 unique-local: receivers on an intranet. */
  allowPrivate: boolean;
  /** Plain http: URLs; otherwise https only. */
  allowHttp: boolean;
}

/** Production: public addresses over https only. */
export const STRICT_POLICY: AddressPolicy = { allowLoopback: false, allowPrivate: false, allowHttp: false };
/** Development: a receiver on this machine, over http, works. */
export const DEVELOPMENT_POLICY: AddressPolicy = { allowLoopback: true, allowPrivate: false, allowHttp: true };

export type AddressRule =
  | 'invalid-address'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'unique-local'
  | 'link-local'
  | 'multicast'
  | 'reserved';

/** Why each rule exists, in words an API answer (a 422) can show. */
export const ADDRESS_RULE_REASONS: Record<AddressRule, string> = {
  'invalid-address': 'is not an IP address',
  unspecified: 'is the unspecified address, which reaches this machine',
  loopback: 'is a loopback address (this machine)',
  private: 'is in a private network',
  cgnat: 'is in the carrier-grade NAT range (100.64.0.0/10)',
  'unique-local': 'is an IPv6 unique-local address (fc00::/7)',
  'link-local': 'is link-local, where cloud metadata services answer',
  multicast: 'is a multicast address',
  reserved: 'is reserved (documentation, benchmarking or not globally routed)',
};

export const isAddressRule = (rule: string): rule is AddressRule => Object.hasOwn(ADDRESS_RULE_REASONS, rule);

const ALLOWED_BY: Partial<Record<AddressRule, keyof AddressPolicy>> = {
  loopback: 'allowLoopback',
  private: 'allowPrivate',
  cgnat: 'allowPrivate',
  'unique-local': 'allowPrivate',
};

type Subnet = readonly [network: string, prefix: number];

/** IPv4 ranges: they also catch the same addresses written as IPv4-mapped or NAT64 (64:ff9b::/96) IPv6. */
const IPV4_RULES: readonly (readonly [AddressRule, readonly Subnet[]])[] = [
  ['unspecified', [['0.0.0.0', 8]]],
  ['loopback', [['127.0.0.0', 8]]],
  ['link-local', [['169.254.0.0', 16]]],
  ['private', [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]]],
  ['cgnat', [['100.64.0.0', 10]]],
  ['multicast', [['224.0.0.0', 4]]],
  [
    'reserved',
    [
      ['192.0.0.0', 24], // IETF protocol assignments
      ['192.0.2.0', 24], // documentation (TEST-NET-1)
      ['192.88.99.0', 24], // deprecated 6to4 relays
      ['198.18.0.0', 15], // benchmarking
      ['198.51.100.0', 24], // documentation (TEST-NET-2)
      ['203.0.113.0', 24], // documentation (TEST-NET-3)
      ['240.0.0.0', 4], // future use, and the broadcast address
    ],
  ],
];

/**
 * IPv6 ranges, first match wins. Only 2000::/3 is global unicast; everything else not listed is reserved
 * (IPv4-compatible ::/96, discard-only 100::/64, deprecated site-local fec0::/10, ...).
 */
const IPV6_RULES: readonly (readonly [AddressRule, readonly Subnet[]])[] = [
  ['unspecified', [['::', 128]]],
  ['loopback', [['::1', 128]]],
  // AWS's instance metadata over IPv6 sits in unique-local space; it is as dangerous as 169.254.169.254.
  ['link-local', [['fd00:ec2::254', 128], ['fe80::', 10]]],
  ['unique-local', [['fc00::', 7]]],
  ['multicast', [['ff00::', 8]]],
  [
    'reserved',
    [
      ['2001::', 23], // IETF protocol assignments, Teredo included
      ['2001:db8::', 32], // documentation
      ['2002::', 16], // 6to4: an IPv4 address inside, unchecked
      ['3fff::', 20], // documentation
    ],
  ],
];

/** Where an IPv6 address carries an IPv4 one, which is then judged by the IPv4 rules alone. */
const IPV4_INSIDE_IPV6: readonly Subnet[] = [
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
];
const GLOBAL_UNICAST_V6: Subnet = ['2000::', 3];

function blockList(subnets: readonly Subnet[], family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, family);
  return list;
}

/** An IPv4 rule's ranges, and the same ranges seen through NAT64 (BlockList maps ::ffff: itself). */
const ipv4Rules = IPV4_RULES.map(([rule, subnets]) => {
  const list = blockList(subnets, 'ipv4');
  for (const [network, prefix] of subnets) list.addSubnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6');
  return [rule, list] as const;
});
const ipv6Rules = IPV6_RULES.map(([rule, subnets]) => [rule, blockList(subnets, 'ipv6')] as const);
const carriesIpv4 = blockList(IPV4_INSIDE_IPV6, 'ipv6');
const globalUnicast = blockList([GLOBAL_UNICAST_V6], 'ipv6');

/** The special range an address is in, or undefined for an ordinary public address. */
export function addressRange(address: string): AddressRule | undefined {
  const version = isIP(address);
  if (version === 0) return 'invalid-address';
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const v4 = ipv4Rules.find(([, list]) => list.check(address, family));
  if (v4) return v4[0];
  if (family === 'ipv4' || carriesIpv4.check(address, family)) return undefined;
  const v6 = ipv6Rules.find(([, list]) => list.check(address, family));
  if (v6) return v6[0];
  return globalUnicast.check(address, family) ? undefined : 'reserved';
}

export type AddressVerdict = { allowed: true } | { allowed: false; rule: AddressRule };

/** Whether the policy opens up a range; link-local and the rest are never opened. */
export function ruleAllowed(rule: AddressRule, policy: AddressPolicy): boolean {
  const allowance = ALLOWED_BY[rule];
  return allowance !== undefined && policy[allowance];
}

/** Whether a delivery may connect to this address; a refusal names the rule, for the log and a 422. */
export function judgeAddress(address: string, policy: AddressPolicy): AddressVerdict {
  const rule = addressRange(address);
  return rule === undefined || ruleAllowed(rule, policy) ? { allowed: true } : { allowed: false, rule };
}
