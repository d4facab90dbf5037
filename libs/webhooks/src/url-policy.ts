/**
 * The check of an endpoint URL when it is saved (its refusal is the API's 422, naming the rule) and again before each
 * delivery. A host name cannot be judged without resolving it: that is done at delivery (destination.ts).
 */
import { isIP } from 'node:net';
import { WEBHOOK_LIMITS } from '@libs/contracts';
import { ADDRESS_RULE_REASONS, isAddressRule, judgeAddress, ruleAllowed, type AddressPolicy, type AddressRule } from './address-policy';

/** The longest endpoint URL accepted (libs/contracts' limits, which the API states). */
export const WEBHOOK_URL_MAX_LENGTH = WEBHOOK_LIMITS.urlMaxLength;
/** The longest DNS name. */
const HOSTNAME_MAX_LENGTH = 253;
/**
 * Control characters, spaces and DEL: the URL parser would silently drop or encode them, so the URL used would not be
 * the one written. Refused instead.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f]/;
/** RFC 6761: these names always mean this machine, whatever a resolver says. */
const LOOPBACK_NAME = /^(?:.+\.)?localhost\.?$/;

export type UrlRule = 'malformed' | 'too-long' | 'scheme' | 'https-required' | 'credentials';
/** Every reason a destination is refused, named for the log and an API answer. */
export type DestinationRule = UrlRule | AddressRule;

export const URL_RULE_REASONS: Record<UrlRule, string> = {
  malformed: 'is not a well-formed absolute URL (control characters, spaces and broken Unicode are refused)',
  'too-long': `is longer than ${WEBHOOK_URL_MAX_LENGTH} characters, or its host name longer than ${HOSTNAME_MAX_LENGTH}`,
  scheme: 'must start with https:// (or http:// where plain http is allowed)',
  'https-required': 'must use https://, not http://',
  credentials: 'must not carry a user name or password (authenticate deliveries by their signature)',
};

/** Every rule, as the API's 422 names it (its `rule`). */
export const DESTINATION_RULES = [...Object.keys(URL_RULE_REASONS), ...Object.keys(ADDRESS_RULE_REASONS)] as [DestinationRule, ...DestinationRule[]];

/** The words for a refusal: "the URL <reason>". */
export const destinationReason = (rule: DestinationRule): string =>
  isAddressRule(rule) ? `host ${ADDRESS_RULE_REASONS[rule]}` : URL_RULE_REASONS[rule];

export type UrlVerdict =
  | {
      ok: true;
      /** The parsed URL: store and use its `href`, so the URL delivered to is the one checked. */
      url: URL;
      /** The host to resolve, or the IP address it is (IPv6 without brackets). */
      host: string;
      /** Whether the host is an IP address, already judged. */
      isAddress: boolean;
    }
  | { ok: false; rule: DestinationRule };

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Whether an endpoint URL may be saved and delivered to, before its name is resolved. Never throws. */
export function checkUrl(text: string, policy: AddressPolicy): UrlVerdict {
  if (typeof text !== 'string') return { ok: false, rule: 'malformed' };
  if (text.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, rule: 'too-long' };
  if (!text.isWellFormed() || CONTROL_OR_SPACE.test(text)) return { ok: false, rule: 'malformed' };
  const url = parse(text);
  if (url === undefined) return { ok: false, rule: 'malformed' };
  // Percent-encoding can make the stored form several times longer than what was written.
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, rule: 'too-long' };
  if (url.protocol === 'http:' && !policy.allowHttp) return { ok: false, rule: 'https-required' };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, rule: 'scheme' };
  if (url.username || url.password) return { ok: false, rule: 'credentials' };

  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0) {
    const verdict = judgeAddress(host, policy);
    return verdict.allowed ? { ok: true, url, host, isAddress: true } : { ok: false, rule: verdict.rule };
  }
  if (host.length > HOSTNAME_MAX_LENGTH) return { ok: false, rule: 'too-long' };
  if (LOOPBACK_NAME.test(host) && !ruleAllowed('loopback', policy)) return { ok: false, rule: 'loopback' };
  return { ok: true, url, host, isAddress: false };
}
