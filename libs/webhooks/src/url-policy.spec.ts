import fc from 'fast-check';
import { ADDRESS_RULE_REASONS, DEVELOPMENT_POLICY, STRICT_POLICY } from './address-policy';
import { URL_RULE_REASONS, WEBHOOK_URL_MAX_LENGTH, checkUrl, destinationReason, type DestinationRule } from './url-policy';

const ruleOf = (text: string, policy = STRICT_POLICY) => {
  const verdict = checkUrl(text, policy);
  return verdict.ok ? 'ok' : verdict.rule;
};

describe('checkUrl', () => {
  it('accepts an https URL and gives the host to resolve', () => {
    const verdict = checkUrl('https://Hooks.Example.com:8443/in?x=1', STRICT_POLICY);
    expect(verdict).toMatchObject({ ok: true, host: 'hooks.example.com', isAddress: false });
    expect(verdict.ok && verdict.url.href).toBe('https://hooks.example.com:8443/in?x=1');
  });

  it('gives an IPv6 literal without its brackets, already judged', () => {
    expect(checkUrl('https://[2606:4700::1]/', STRICT_POLICY)).toMatchObject({ ok: true, host: '2606:4700::1', isAddress: true });
  });

  const refusals: [string, DestinationRule][] = [
    ['http://hooks.example.com/', 'https-required'],
    ['ftp://hooks.example.com/', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['gopher://127.0.0.1:6379/_FLUSHALL', 'scheme'],
    ['https://user:pass@hooks.example.com/', 'credentials'],
    ['https://user@hooks.example.com/', 'credentials'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://[fd00:ec2::254]/', 'link-local'],
    ['https://10.0.0.1/', 'private'],
    ['https://172.16.5.4/', 'private'],
    ['https://192.168.0.10/', 'private'],
    ['https://100.64.1.1/', 'cgnat'],
    ['https://[fc00::1]/', 'unique-local'],
    ['https://127.0.0.1/', 'loopback'],
    ['https://[::1]/', 'loopback'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://2130706433/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
    ['https://0177.0.0.1/', 'loopback'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://[::]/', 'unspecified'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://localhost/', 'loopback'],
    ['https://LOCALHOST./', 'loopback'],
    ['https://api.localhost:8080/', 'loopback'],
    ['https://ｌｏｃａｌｈｏｓｔ/', 'loopback'],
    ['', 'malformed'],
    ['hooks.example.com/in', 'malformed'],
    ['https://', 'malformed'],
    ['https://exa mple.com/', 'malformed'],
    [' https://hooks.example.com/', 'malformed'],
    ['https://hooks.example.com/\n', 'malformed'],
    ['https://hooks.example.com/\u0000', 'malformed'],
    ['https://hooks.example.com/\u007f', 'malformed'],
    ['https://hooks.example.com/\ud800', 'malformed'],
    ['https://[fe80::1%25eth0]/', 'malformed'],
    ['https://999.1.1.1/', 'malformed'],
    [`https://hooks.example.com/${'a'.repeat(WEBHOOK_URL_MAX_LENGTH)}`, 'too-long'],
    [`https://${`${'a'.repeat(60)}.`.repeat(5)}com/`, 'too-long'],
    [`https://hooks.example.com/${'x'.repeat(100_000)}`, 'too-long'],
    [`https://hooks.example.com/${'€'.repeat(300)}`, 'too-long'],
  ];
  const label = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 40)}… (${text.length} characters)` : text);
  it.each(refusals.map(([text, rule]) => [label(text), rule, text]))('refuses %s: %s', (_label, rule, text) => {
    expect(ruleOf(text)).toBe(rule);
  });

  it('lets development send plain http to this machine, and nowhere more', () => {
    expect(ruleOf('http://localhost:3000/hooks', DEVELOPMENT_POLICY)).toBe('ok');
    expect(ruleOf('http://127.0.0.1:3000/hooks', DEVELOPMENT_POLICY)).toBe('ok');
    expect(ruleOf('http://[::1]:3000/hooks', DEVELOPMENT_POLICY)).toBe('ok');
    expect(ruleOf('http://10.0.0.1/', DEVELOPMENT_POLICY)).toBe('private');
    expect(ruleOf('http://169.254.169.254/', DEVELOPMENT_POLICY)).toBe('link-local');
  });

  it('names every refusal in words an API answer can show', () => {
    expect(destinationReason('link-local')).toBe(`host ${ADDRESS_RULE_REASONS['link-local']}`);
    expect(destinationReason('credentials')).toBe(URL_RULE_REASONS.credentials);
  });

  it('never throws, and refuses with a named rule, whatever the string', () => {
    const rules = new Set([...Object.keys(URL_RULE_REASONS), ...Object.keys(ADDRESS_RULE_REASONS)]);
    const hostile = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.tuple(fc.constantFrom('https://', 'http://', 'https://[', 'https://user@', ''), fc.string({ unit: 'binary' })).map(
        ([start, rest]) => start + rest,
      ),
      fc.tuple(fc.constantFrom('https://', 'https://[::ffff:'), fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4Extended())).map(
        ([start, host]) => `${start}${host}${start.endsWith('[') || start.endsWith(':') ? ']' : ''}/`,
      ),
    );
    fc.assert(
      fc.property(hostile, fc.constantFrom(STRICT_POLICY, DEVELOPMENT_POLICY), (text, policy) => {
        const verdict = checkUrl(text, policy);
        if (verdict.ok) {
          expect(['https:', policy.allowHttp ? 'http:' : 'https:']).toContain(verdict.url.protocol);
          expect(verdict.url.username + verdict.url.password).toBe('');
          expect(verdict.url.href.length).toBeLessThanOrEqual(WEBHOOK_URL_MAX_LENGTH);
        } else {
          expect(rules).toContain(verdict.rule);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what is not a string at all, as a JSON body may carry', () => {
    for (const value of [undefined, null, 42, {}, ['https://hooks.example.com/']]) {
      expect(checkUrl(value as unknown as string, STRICT_POLICY)).toEqual({ ok: false, rule: 'malformed' });
    }
  });
});
