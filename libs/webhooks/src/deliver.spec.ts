import fc from 'fast-check';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DEVELOPMENT_POLICY, STRICT_POLICY, type AddressRule } from './address-policy';
import { WEBHOOK_USER_AGENT, deliver, type DeliveryOptions } from './deliver';
import type { Resolver } from './destination';
import { webhookPayload } from './payload';
import { newSecret, verifySignature } from './signature';
import { selfSignedCertificate, startReceiver, type ReceivedDelivery, type Receiver, type ReceiverOptions, type Respond } from '@libs/testing';

const receivers: Receiver[] = [];
async function receiver(respond: Respond, options?: ReceiverOptions): Promise<Receiver> {
  const started = await startReceiver(respond, options);
  receivers.push(started);
  return started;
}
afterEach(() => Promise.all(receivers.splice(0).map((started) => started.close())));

const payload = webhookPayload({
  id: 'evt_2b7a0c1e',
  type: 'transaction.created',
  occurredAt: new Date('2026-11-28T10:00:00Z'),
  object: { type: 'transaction', id: 't1', version: 1, url: 'https://api.example.org/api/v1/transactions/t1' },
});
const body = JSON.stringify(payload);
const secret = newSecret();
const event = (url: string, secrets: readonly string[] = [secret]) => ({ url, id: payload.id, body, secrets });

/** A receiver as integrators write one: the published verifier on the raw body; 204 when it accepts, 401 otherwise. */
const verifyingWith =
  (known: string): Respond =>
  (delivery, res) => {
    try {
      new Webhook(known).verify(delivery.body, delivery.headers as Record<string, string>);
      res.writeHead(204).end();
    } catch (error) {
      res.writeHead(401).end((error as Error).message);
    }
  };

/** A DNS that answers each lookup with the next of its answers (the last one repeating), recording what was asked. */
function dnsAnswering(...answers: string[][]): { resolve: Resolver; asked: string[] } {
  const asked: string[] = [];
  const resolve: Resolver = async (host) => {
    asked.push(host);
    const answer = answers[Math.min(asked.length, answers.length) - 1];
    return answer.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  };
  return { resolve, asked };
}

const local = (port: number, path = '/hooks') => `http://127.0.0.1:${port}${path}`;
const dev: DeliveryOptions = { policy: DEVELOPMENT_POLICY };
const SHORT_DEADLINE_MS = 300;

describe('deliver: what a receiver gets', () => {
  it('POSTs the payload, signed so that the published Standard Webhooks verifier accepts it', async () => {
    const hooks = await receiver(verifyingWith(secret));
    const outcome = await deliver(event(local(hooks.port)), dev);

    expect(outcome).toMatchObject({ result: 'delivered', status: 204, address: '127.0.0.1', truncated: false });
    expect(outcome.durationMs).toBeGreaterThan(0);
    const [delivery] = hooks.deliveries;
    expect(delivery.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'webhook-id': payload.id,
      'webhook-timestamp': String(Math.floor(outcome.startedAt.getTime() / 1000)),
    });
    expect(JSON.parse(delivery.body.toString('utf8'))).toEqual(payload);
    expect(verifySignature({ body: delivery.body, headers: delivery.headers, secrets: [secret] })).toEqual({ ok: true });
  });

  it('verifies during a rotation at receivers knowing only the new or only the old secret', async () => {
    const [next, previous] = [newSecret(), newSecret()];
    const knowsNew = await receiver(verifyingWith(next));
    const knowsOld = await receiver(verifyingWith(previous));
    const knowsNeither = await receiver(verifyingWith(newSecret()));

    expect(await deliver(event(local(knowsNew.port), [next, previous]), dev)).toMatchObject({ result: 'delivered' });
    expect(await deliver(event(local(knowsOld.port), [next, previous]), dev)).toMatchObject({ result: 'delivered' });
    expect(await deliver(event(local(knowsNeither.port), [next, previous]), dev)).toMatchObject({
      result: 'retry',
      status: 401,
      excerpt: 'No matching signature found',
    });
  });

  it('sends the same webhook-id on every attempt, so a receiver can deduplicate', async () => {
    const hooks = await receiver((_delivery, res) => res.writeHead(503).end());
    await deliver(event(local(hooks.port)), dev);
    await deliver(event(local(hooks.port)), dev);
    expect(hooks.deliveries.map((delivery) => delivery.headers['webhook-id'])).toEqual([payload.id, payload.id]);
  });

  it('disables on 410 and retries on 500, keeping the first 1 KB of the answer, NUL bytes replaced for the log', async () => {
    const gone = await receiver((_delivery, res) => res.writeHead(410).end('endpoint removed'));
    const failing = await receiver((_delivery, res) => res.writeHead(500).end(`${'e'.repeat(1000)}\u0000${'e'.repeat(2000)}`));

    expect(await deliver(event(local(gone.port)), dev)).toMatchObject({ result: 'gone', status: 410, excerpt: 'endpoint removed' });
    const outcome = await deliver(event(local(failing.port)), dev);
    expect(outcome).toMatchObject({ result: 'retry', status: 500, excerpt: `${'e'.repeat(1000)}\ufffd${'e'.repeat(23)}`, truncated: false });
  });

  it('does not follow a redirect: a 3xx is a failure to retry', async () => {
    const elsewhere = await receiver(verifyingWith(secret));
    const redirecting = await receiver((_delivery, res) => res.writeHead(307, { location: local(elsewhere.port) }).end());

    expect(await deliver(event(local(redirecting.port)), dev)).toMatchObject({ result: 'retry', status: 307 });
    expect(elsewhere.deliveries).toHaveLength(0);
  });

  it('gives up on a receiver that never answers at the deadline', async () => {
    const hanging = await receiver(() => undefined);
    const outcome = await deliver(event(local(hanging.port)), { ...dev, timeoutMs: SHORT_DEADLINE_MS });

    expect(outcome).toMatchObject({ result: 'retry', failure: 'timeout' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(SHORT_DEADLINE_MS - 5);
    expect(outcome.durationMs).toBeLessThan(SHORT_DEADLINE_MS + 2000);
    expect(hanging.deliveries).toHaveLength(1);
  });

  it('judges by the status when the body never ends, stopping at the deadline', async () => {
    const trickling = await receiver((_delivery, res) => res.writeHead(200).write('accepted, and then'));
    const outcome = await deliver(event(local(trickling.port)), { ...dev, timeoutMs: SHORT_DEADLINE_MS });

    expect(outcome).toMatchObject({ result: 'delivered', status: 200, excerpt: 'accepted, and then', truncated: true });
    expect(outcome.durationMs).toBeLessThan(SHORT_DEADLINE_MS + 2000);
  });

  it('reads at most 64 KB of a 10 MB answer and closes the connection', async () => {
    const TEN_MB = 10 * 1024 * 1024;
    let written = 0;
    let closedAfter: Promise<number> = Promise.resolve(0);
    const streaming = await receiver((_delivery, res) => {
      closedAfter = new Promise((resolve) => res.on('close', () => resolve(written)));
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (written < TEN_MB && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const outcome = await deliver(event(local(streaming.port)), dev);

    expect(outcome).toMatchObject({ result: 'delivered', status: 200, excerpt: 'x'.repeat(1024), truncated: true });
    expect(await closedAfter).toBeLessThan(TEN_MB);
  });

  it('fails an answer whose headers alone are too large', async () => {
    const flooding = await receiver((_delivery, res) => res.writeHead(200, { 'x-flood': 'f'.repeat(20_000) }).end());
    expect(await deliver(event(local(flooding.port)), dev)).toMatchObject({ result: 'retry', failure: 'too-large' });
  });

  it('retries when nothing listens', async () => {
    const closed = await receiver(() => undefined);
    await closed.close();
    expect(await deliver(event(local(closed.port)), dev)).toMatchObject({ result: 'retry', failure: 'connection', detail: 'ECONNREFUSED' });
  });
});

describe('deliver: TLS, with the connection pinned to the checked address', () => {
  const certificate = selfSignedCertificate('receiver.test');
  const dns = () => dnsAnswering(['127.0.0.1']).resolve;

  it('verifies the certificate against the URL’s host name, not the address it connects to', async () => {
    const hooks = await receiver(verifyingWith(secret), { tls: certificate });
    const outcome = await deliver(event(`https://receiver.test:${hooks.port}/hooks`), { ...dev, resolve: dns(), ca: certificate.cert });

    expect(outcome).toMatchObject({ result: 'delivered', status: 204, address: '127.0.0.1' });
    expect(hooks.deliveries[0].headers.host).toBe(`receiver.test:${hooks.port}`);
  });

  it('refuses a certificate it does not trust, or one for another name', async () => {
    const hooks = await receiver(verifyingWith(secret), { tls: certificate });
    const other = selfSignedCertificate('other.test');

    expect(await deliver(event(`https://receiver.test:${hooks.port}/`), { ...dev, resolve: dns() })).toMatchObject({ failure: 'tls' });
    expect(await deliver(event(`https://receiver.test:${hooks.port}/`), { ...dev, resolve: dns(), ca: other.cert })).toMatchObject({
      failure: 'tls',
    });
    expect(hooks.deliveries).toHaveLength(0);
  });

  it('calls a plain-http server on an https URL a TLS failure', async () => {
    const plain = await receiver(verifyingWith(secret));
    expect(await deliver(event(`https://receiver.test:${plain.port}/`), { ...dev, resolve: dns() })).toMatchObject({ failure: 'tls' });
  });
});

describe('deliver: server-side request forgery', () => {
  const production = { ...STRICT_POLICY, allowHttp: true };

  it.each<[string, AddressRule]>([
    ['169.254.169.254', 'link-local'],
    ['fd00:ec2::254', 'link-local'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['::1', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
  ])('refuses %s (%s), written in the URL or behind a name', async (address, rule) => {
    const literal = isIP(address) === 6 ? `[${address}]` : address;
    expect(await deliver(event(`https://${literal}/hooks`), { policy: STRICT_POLICY })).toMatchObject({
      result: 'retry',
      failure: 'refused-address',
      rule,
    });
    const dns = dnsAnswering([address]);
    expect(await deliver(event('https://hooks.example.com/'), { policy: STRICT_POLICY, resolve: dns.resolve })).toMatchObject({
      result: 'retry',
      failure: 'refused-address',
      rule,
      address,
    });
    expect(dns.asked).toEqual(['hooks.example.com']);
  });

  it('never allows link-local, whatever the configuration', async () => {
    const everything = { allowLoopback: true, allowPrivate: true, allowHttp: true };
    expect(await deliver(event('http://169.254.169.254/latest/meta-data/'), { policy: everything })).toMatchObject({ rule: 'link-local' });
  });

  it('sends nothing to this machine unless loopback is allowed, by address or by the name localhost', async () => {
    const hooks = await receiver(verifyingWith(secret));
    for (const url of [local(hooks.port), `http://localhost:${hooks.port}/`, `http://[::ffff:127.0.0.1]:${hooks.port}/`]) {
      expect(await deliver(event(url), { policy: production })).toMatchObject({ failure: 'refused-address', rule: 'loopback' });
    }
    expect(hooks.deliveries).toHaveLength(0);

    expect(await deliver(event(`http://localhost:${hooks.port}/`), dev)).toMatchObject({ result: 'delivered', address: '127.0.0.1' });
  });

  it('refuses a name when any of its addresses is refused', async () => {
    const dns = dnsAnswering(['93.184.215.14', '10.0.0.1']);
    expect(await deliver(event('https://hooks.example.com/'), { policy: STRICT_POLICY, resolve: dns.resolve })).toMatchObject({
      failure: 'refused-address',
      rule: 'private',
      address: '10.0.0.1',
    });
  });

  it('refuses plain http and credentials in production before resolving anything', async () => {
    const dns = dnsAnswering(['93.184.215.14']);
    const options = { policy: STRICT_POLICY, resolve: dns.resolve };
    expect(await deliver(event('http://hooks.example.com/'), options)).toMatchObject({ failure: 'refused-url', rule: 'https-required' });
    expect(await deliver(event('https://u:p@hooks.example.com/'), options)).toMatchObject({ failure: 'refused-url', rule: 'credentials' });
    expect(await deliver(event('https://hooks.example.com/\u0000'), options)).toMatchObject({ failure: 'refused-url', rule: 'malformed' });
    expect(dns.asked).toEqual([]);
  });

  it('connects to the address it checked, though the DNS answers otherwise by then', async () => {
    const checked = await receiver(verifyingWith(secret), { host: '127.0.0.1' });
    const rebound = await receiver(verifyingWith(secret), { host: '127.0.0.2', port: checked.port });
    const dns = dnsAnswering(['127.0.0.1'], ['127.0.0.2']);

    const outcome = await deliver(event(`http://rebinding.test:${checked.port}/`), { ...dev, resolve: dns.resolve });
    expect(outcome).toMatchObject({ result: 'delivered', address: '127.0.0.1' });
    expect(dns.asked).toHaveLength(1);
    expect(checked.deliveries.map((delivery: ReceivedDelivery) => delivery.headers.host)).toEqual([`rebinding.test:${checked.port}`]);
    expect(rebound.deliveries).toHaveLength(0);
  });

  it('refuses when the checked answer is refused, and never tries the next answer', async () => {
    const hooks = await receiver(verifyingWith(secret));
    const dns = dnsAnswering(['10.0.0.1'], ['127.0.0.1']);

    expect(await deliver(event(`http://rebinding.test:${hooks.port}/`), { ...dev, resolve: dns.resolve })).toMatchObject({
      failure: 'refused-address',
      rule: 'private',
    });
    expect(dns.asked).toHaveLength(1);
    expect(hooks.deliveries).toHaveLength(0);
  });
});

describe('deliver: name resolution', () => {
  it('retries when the name does not resolve', async () => {
    const failing: Resolver = () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    expect(await deliver(event('https://hooks.example.com/'), { policy: STRICT_POLICY, resolve: failing })).toMatchObject({
      result: 'retry',
      failure: 'dns',
      detail: 'ENOTFOUND',
    });
    expect(await deliver(event('https://hooks.example.com/'), { policy: STRICT_POLICY, resolve: dnsAnswering([]).resolve })).toMatchObject({
      failure: 'dns',
      detail: 'ENODATA',
    });
  });

  it('never throws, whatever the URL: every outcome is one to record', async () => {
    const failures = new Set(['refused-url', 'refused-address', 'dns']);
    const documentation = dnsAnswering(['192.0.2.1']).resolve;
    const hostile = fc.oneof(fc.string({ unit: 'binary' }), fc.webUrl({ withQueryParameters: true, withFragments: true }));
    await fc.assert(
      fc.asyncProperty(hostile, async (url) => {
        const outcome = await deliver(event(url), { policy: STRICT_POLICY, resolve: documentation });
        expect(outcome.result).toBe('retry');
        expect(failures).toContain('failure' in outcome && outcome.failure);
      }),
      { numRuns: 200 },
    );
  });

  it('counts a resolver that never answers against the deadline', async () => {
    const silent: Resolver = () => new Promise(() => undefined);
    const outcome = await deliver(event('https://hooks.example.com/'), { policy: STRICT_POLICY, resolve: silent, timeoutMs: SHORT_DEADLINE_MS });
    expect(outcome).toMatchObject({ result: 'retry', failure: 'timeout' });
    expect(outcome.durationMs).toBeLessThan(SHORT_DEADLINE_MS + 2000);
  });
});
