import { GrpcStatus, ProblemError } from '@libs/grpc';
import { checkUrl, destinationReason, resolveDestination, type AddressPolicy, type DestinationRule, type Resolver } from '@libs/webhooks';

/** How long saving waits for the name to resolve; a name that does not resolve yet is checked again at each delivery. */
const RESOLVE_WAIT_MS = 3_000;

/** OUT_OF_RANGE, which the gateway answers 422: a valid URL that the policy refuses, naming the rule. */
const refused = (rule: DestinationRule) =>
  new ProblemError(GrpcStatus.OUT_OF_RANGE, `the URL ${destinationReason(rule)}`, { type: 'webhook_url_refused', rule });

/**
 * The URL to store, once it passes the address policy: its normalised form (what is checked is what is delivered
 * to). Its name is resolved now too, so a name pointing inside is refused at once rather than at every delivery.
 */
export async function checkedUrl(text: string, policy: AddressPolicy, resolve: Resolver): Promise<string> {
  const checked = checkUrl(text, policy);
  if (!checked.ok) throw refused(checked.rule);
  const timer = new Promise<undefined>((settle) => setTimeout(() => settle(undefined), RESOLVE_WAIT_MS).unref());
  const destination = await Promise.race([resolveDestination(text, policy, resolve), timer]);
  if (destination?.ok === false && destination.error !== 'dns') throw refused(destination.rule);
  return checked.url.href;
}
