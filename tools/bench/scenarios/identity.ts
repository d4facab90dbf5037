import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import type { BenchContext, Scenario } from '../context';
import { percentile } from './webhook-fixtures';

/** Milliseconds from sending a JSON POST to the end of its answer, from a given local address. */
function timedPost(url: string, body: unknown, localAddress: string): Promise<{ status: number; ms: number }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const sent = request(url, { method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    sent.on('error', reject);
    sent.end(payload);
  });
}

/** Long enough for a relay pass (a few milliseconds of work, woken at once by the commit). */
const SETTLE_MS = 150;

/**
 * Known, unknown, unknown, known: each kind follows each kind equally often. In plain alternation every known
 * request came right after an unknown one, whose new account sets audit, notifications and the mail relay going,
 * and carried that work in its time.
 */
const ORDER = ['known', 'unknown', 'unknown', 'known'] as const;

/**
 * Whether the answer's time tells a known email from an unknown one (account enumeration by stopwatch), for the
 * two operations that take an email from anyone: password reset and registration. Requests interleave a
 * registered email and fresh ones (ORDER), so drift in the machine's load falls on both alike; each comes from its own
 * loopback address (127.0.0.0/8 is all the local host), because the per-address throttles are not what is measured.
 * The figure is the ratio of the medians, known over unknown: 1 means the clock says nothing.
 */
export const enumerationTiming: Scenario = async (context) => {
  const known = `bench-known-${randomUUID()}@example.org`;
  const base = context.gatewayUrl;
  let address = 0;
  /** A fresh loopback address for every two requests: well under any per-address limit. */
  const nextAddress = () => {
    address += 1;
    const n = Math.floor(address / 2) + 2;
    return `127.${Math.floor(n / 65_536) % 256}.${Math.floor(n / 256) % 256}.${n % 256 || 1}`;
  };
  const first = await timedPost(`${base}/api/v1/auth/register`, { email: known, password: 'a bench password' }, nextAddress());
  if (first.status !== 202) throw new Error(`registering the known email answered ${first.status}`);

  for (const [operation, path, samples, password] of [
    ['password reset', '/api/v1/auth/password-reset', context.smoke ? 10 : 200, undefined],
    ['registration', '/api/v1/auth/register', context.smoke ? 4 : 30, 'a bench password'],
  ] as const) {
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (let i = 0; i < samples * 2; i += 1) {
      const which = ORDER[i % ORDER.length];
      const email = which === 'known' ? known : `bench-unknown-${randomUUID()}@example.org`;
      const { status, ms } = await timedPost(`${base}${path}`, { email, password }, nextAddress());
      if (status !== 202) throw new Error(`${operation} for a ${which} email answered ${status}`);
      times[which].push(ms);
      // What each answer sets going after it (the relays handing over its mail and event) ends before the next
      // request starts: otherwise one branch's background work would fall on the other branch's measurement.
      await setTimeout(SETTLE_MS);
    }
    for (const which of ['known', 'unknown'] as const) {
      const spent = times[which].reduce((sum, ms) => sum + ms, 0);
      context.record({
        scenario: `enumeration timing, ${operation}, ${which} email, one at a time`,
        target: 'system',
        result: {
          requestsPerSecond: times[which].length / (spent / 1000),
          p50Ms: percentile(times[which], 50),
          p99Ms: percentile(times[which], 99),
          requests: times[which].length,
          errors: 0,
          statusCodes: { '202': times[which].length },
        },
      });
    }
    const ratio = percentile(times.known, 50) / percentile(times.unknown, 50);
    context.note(`${operation}: known over unknown, medians`, ratio, 'x');
    judgeRatio(context, operation, ratio);
  }
};

/** Within 10 % either way: the medians of two equal paths differ by less on a quiet machine, a look-up and two writes by far more. */
function judgeRatio(context: BenchContext, operation: string, ratio: number): void {
  context.judge({ scenario: `enumeration timing, ${operation}`, figure: `known/unknown median ${ratio.toFixed(2)}`, target: '0.90 – 1.10', met: ratio >= 0.9 && ratio <= 1.1 });
}
