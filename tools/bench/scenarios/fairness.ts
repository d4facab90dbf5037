import { misspell } from '../../search-quality/typos';
import { signUp } from '@libs/testing';
import { bearer, uncached, type BenchContext, type Scenario } from '../context';
import type { LoadResult, RequestSpec } from '../load/load-spec';
import { diseaseNames } from './diseases';

/** The attacker's connections, as in the report. */
const ATTACK_CONNECTIONS = 16;
/** The victim's pace: an ordinary client, well within its limits. */
const VICTIM_RATE = 20;
const VICTIM_CONNECTIONS = 2;
/** Each phase runs three times the usual duration: at 20 req/s, a p99 needs a few hundred answers to mean anything. */
const PHASE_DURATIONS = 3;

/** A new account as anyone can make one: a reader, under the reader role's default limits. */
const registerReader = (context: BenchContext, name: string) =>
  signUp(context.gatewayUrl, { email: `${name}-${Date.now()}@bench.example.org`, password: 'a bench password' });

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const randomWord = (random: () => number, length: number) =>
  Array.from({ length }, () => LETTERS[Math.floor(random() * LETTERS.length)]).join('');

/**
 * The searches the issue reports as worst cases: random 200-letter names, and
 * random high-entropy names of many words; each different, so that no cache
 * helps.
 */
function worstCaseSearches(context: BenchContext, key: string, count: number): RequestSpec[] {
  return Array.from({ length: count }, (_, i) => {
    const name =
      i % 2 === 0
        ? randomWord(context.random, 200)
        : Array.from({ length: 16 }, () => randomWord(context.random, 5 + Math.floor(context.random() * 8))).join(' ');
    return { path: `/api/v1/diseases?n=${encodeURIComponent(name)}&r=false`, headers: uncached(key) };
  });
}

const countOf = (result: LoadResult, test: (status: number) => boolean) =>
  Object.entries(result.statusCodes)
    .filter(([status]) => test(Number(status)))
    .reduce((sum, [, count]) => sum + count, 0);

/**
 * One key floods worst-case disease searches at 16 connections while another
 * runs ordinary (misspelt, uncached) searches at a modest pace. The attacker is
 * a freshly registered reader under the role's default limits; the victim's
 * rate limit is raised by an admin to its needs, as a partner's would be. The
 * victim's p99 under attack must stay within 2× its p99 alone, with no 5xx.
 */
export const noisyNeighbour: Scenario = async (context) => {
  const attacker = await registerReader(context, 'attacker');
  const victim = await registerReader(context, 'victim');
  const raised = await fetch(`${context.gatewayUrl}/api/v1/auth/keys/${victim.id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', ...bearer(context.keys.admin) },
    body: JSON.stringify({ rateLimit: VICTIM_RATE * 60 * 2, dailyQuota: 1_000_000 }),
  });
  if (!raised.ok) throw new Error(`raising the victim's limits answered ${raised.status}: ${await raised.text()}`);
  const victimSearches: RequestSpec[] = (await diseaseNames(context, 2_000)).map((name) => ({
    path: `/api/v1/diseases?n=${encodeURIComponent(misspell(name, context.random))}&r=false`,
    headers: uncached(victim.key),
  }));
  // Both phases send the same searches; warmed first (with another key), so that neither finds colder caches.
  await context.load(context.gatewayUrl, victimSearches.map((search) => ({ ...search, headers: uncached(context.keys.reader) })), {
    amount: victimSearches.length,
  });
  const duration = context.duration * PHASE_DURATIONS;
  const victimLoad = () =>
    context.load(context.gatewayUrl, victimSearches, { connections: VICTIM_CONNECTIONS, rate: VICTIM_RATE, expected: [404], duration });

  const quiet = context.record({ scenario: 'noisy neighbour: victim alone', target: 'system', result: await victimLoad() });
  const [attack, underAttack] = await Promise.all([
    context.load(context.gatewayUrl, worstCaseSearches(context, attacker.key, 5_000), {
      connections: ATTACK_CONNECTIONS,
      expected: [404, 429],
      duration,
      warmup: 0, // the attack starts with the key's whole allowance, as a real one would
    }),
    victimLoad(),
  ]);
  context.record({ scenario: 'noisy neighbour: attacker (16 connections)', target: 'system', result: attack });
  context.record({ scenario: 'noisy neighbour: victim under attack', target: 'system', result: underAttack });

  const admitted = countOf(attack, (status) => status < 400 || status === 404);
  context.note('noisy neighbour: attacker admitted', admitted / duration, 'req/s');
  context.note('noisy neighbour: attacker refused (429)', countOf(attack, (status) => status === 429) / duration, 'req/s');
  context.note('noisy neighbour: attacker 5xx', countOf(attack, (status) => status >= 500), 'responses');
  const ratio = underAttack.p99Ms / Math.max(quiet.p99Ms, 1);
  context.judge({
    scenario: 'noisy neighbour',
    figure: `victim p99 ${underAttack.p99Ms} ms under attack, ${quiet.p99Ms} ms alone: ${ratio.toFixed(2)}×`,
    target: 'p99 ≤ 2× alone',
    met: ratio <= 2,
  });
  const victim5xx = countOf(underAttack, (status) => status >= 500);
  context.judge({ scenario: 'noisy neighbour', figure: `${victim5xx} victim 5xx`, target: 'no 5xx', met: victim5xx === 0 });
};

/**
 * What the per-key limiter costs: the gateway's CPU time per request on the
 * cheapest keyed path (an answer from its reference cache), where the
 * limiter's share of the work is largest (the CPU table has it); and how often
 * the limiter wrote to the database meanwhile (a batch an interval, whatever
 * the load).
 */
export const keyedReadCost: Scenario = async (context) => {
  const request = [{ path: '/api/v1/diseases?n=asthma&r=false', headers: bearer(context.keys.reader) }];
  const writes = async () => {
    const text = await (await fetch(context.gatewayMetricsUrl)).text();
    return Number(/^api_key_usage_writes_total\{outcome="ok"\} (\d+)/m.exec(text)?.[1] ?? 0);
  };
  await context.load(context.gatewayUrl, request, { amount: 100 }); // fills the cache, and is the warm-up
  const writesBefore = await writes();
  const result = context.record({
    scenario: 'keyed cached read',
    target: 'system',
    result: await context.load(context.gatewayUrl, request, { warmup: 0 }),
  });
  context.note('keyed cached read: limiter writes to the database', (await writes()) - writesBefore, `for ${result.requests} requests`);
};
