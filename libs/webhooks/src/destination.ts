/**
 * Where one delivery goes: the URL checked, its host resolved, every address judged. The addresses returned are the
 * only ones the connection may use (deliver.ts pins them), so a DNS answer that changes after this check, the trick
 * of DNS rebinding, cannot redirect the delivery.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isAddressRule, judgeAddress, type AddressPolicy } from './address-policy';
import { checkUrl, type DestinationRule } from './url-policy';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name. Injected in tests, to play DNS answers that change from one call to the next. */
export type Resolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), all addresses, in the order it prefers. */
export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

export type Destination =
  | { ok: true; url: URL; host: string; addresses: readonly ResolvedAddress[] }
  | { ok: false; error: 'refused-url' | 'refused-address'; rule: DestinationRule; address?: string }
  | { ok: false; error: 'dns'; detail: string };

const addressOf = (address: string): ResolvedAddress => ({ address, family: isIP(address) === 6 ? 6 : 4 });

async function resolveAll(host: string, resolve: Resolver): Promise<readonly ResolvedAddress[] | string> {
  try {
    const addresses = await resolve(host);
    return addresses.length > 0 ? addresses : 'ENODATA';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'lookup failed';
  }
}

/**
 * Checks a URL and resolves its host. If ANY address of the answer is refused, the destination is refused: a name
 * that mixes public and internal addresses is a misconfiguration or an attack (a rebinding server answers both), and
 * picking the allowed ones would hide it while still delivering to whoever controls the name. The owner sees the
 * refused address and its rule instead. Never throws: a resolver's failure is a `dns` error.
 */
export async function resolveDestination(
  text: string,
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): Promise<Destination> {
  const checked = checkUrl(text, policy);
  if (!checked.ok) {
    return { ok: false, error: isAddressRule(checked.rule) ? 'refused-address' : 'refused-url', rule: checked.rule };
  }
  const { url, host } = checked;
  if (checked.isAddress) return { ok: true, url, host, addresses: [addressOf(host)] };

  const addresses = await resolveAll(host, resolve);
  if (typeof addresses === 'string') return { ok: false, error: 'dns', detail: addresses };
  for (const { address } of addresses) {
    const verdict = judgeAddress(address, policy);
    if (!verdict.allowed) return { ok: false, error: 'refused-address', rule: verdict.rule, address };
  }
  // Judged by the address itself, not by the family the resolver claims.
  return { ok: true, url, host, addresses: addresses.map(({ address }) => addressOf(address)) };
}
