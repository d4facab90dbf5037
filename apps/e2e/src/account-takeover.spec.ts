import { mailedLinkToken, startSystem, waitFor, withPgClient, type RunningSystem } from '@libs/testing';
import { allAuditEntries } from './audit-helpers';
import { api, type ApiResponse } from './http';

/**
 * Identity that email makes trustworthy, through real processes (gateway, notifications, audit, PostgreSQL,
 * RabbitMQ): the account mails are read where a person's mailbox would get them from (what notifications stored
 * from QueueAccountMail), and every identity change reaches the audit log without a secret in it.
 */
describe('account takeover, reset and enumeration (real processes)', () => {
  let system: RunningSystem;
  /** Every secret this run made or sent: passwords, keys, session tokens, link tokens. None may be in any stored event. */
  const secrets = new Set<string>();

  const post = async (path: string, body?: unknown, key?: string): Promise<ApiResponse> => {
    const reply = await api(system.gatewayUrl, path, { method: 'POST', body, key });
    for (const value of [reply.body?.token, reply.body?.key]) if (typeof value === 'string') secrets.add(value);
    return reply;
  };
  const register = (email: string, password: string) => {
    secrets.add(password);
    return post('/api/v1/auth/register', { email, password });
  };
  const login = (email: string, password: string) => post('/api/v1/auth/login', { email, password });
  const linkToken = async (email: string, template: 'verify_email' | 'password_reset') => {
    const token = await mailedLinkToken(system, email, template);
    secrets.add(token);
    return token;
  };
  /** What a client can tell two answers apart by: status, headers and body, bar the request id and the date. */
  const visible = (reply: ApiResponse) => ({
    status: reply.status,
    headers: [...reply.headers].filter(([name]) => !['x-request-id', 'date', 'etag'].includes(name)),
    body: reply.body,
  });
  const userIdOf = async (email: string): Promise<string> => {
    const { body } = await api(system.gatewayUrl, '/api/v1/auth/users?limit=500', { key: system.keys.admin });
    return (body.users as { id: string; email: string }[]).find((user) => user.email === email)?.id ?? '';
  };
  /** The account mails notifications stored for an address, oldest first. */
  const mailsTo = (email: string) =>
    withPgClient(system.databaseUrl('notifications'), async (client) =>
      (await client.query<{ template: string }>('SELECT template FROM mails WHERE to_address = $1 ORDER BY created_at', [email])).rows.map((row) => row.template),
    );

  beforeAll(async () => {
    system = await startSystem();
  }, 180_000);
  afterAll(() => system?.shutdown(), 60_000);

  it('a squatter registers the victim’s address; the real owner takes it back through the mail and ends in control', async () => {
    const victim = 'victim@example.org';
    expect((await register(victim, 'the squatter password')).status).toBe(202);
    const squatterSession = (await login(victim, 'the squatter password')).body.token as string;
    const squatterKey = (await post('/api/v1/auth/keys', { name: 'mine' }, squatterSession)).body.key as string;
    expect((await api(system.gatewayUrl, '/api/v1/auth/me', { key: squatterKey })).body).toMatchObject({ role: 'reader', emailVerified: false });

    // The owner registers too: the same answer, and nothing changes. Their mailbox holds the squatter's verification
    // mail only: the "someone tried to register" warning goes to proved addresses alone (docs/NOTIFICATIONS.md), and
    // the way back for the owner is the password reset below.
    expect((await register(victim, 'the owner password')).status).toBe(202);
    await waitFor('the verification mail to the owner', async () => ((await mailsTo(victim)).length === 1 ? true : undefined));
    expect(await mailsTo(victim)).toEqual(['verify_email']);
    // The squatter has no mail, so no token: a made-up one changes nothing.
    const guessed = await post('/api/v1/auth/verify-email', { token: 'A'.repeat(43) });
    expect(guessed.status).toBe(400);
    expect(guessed.body.errors).toEqual([{ field: 'token', message: expect.stringMatching(/unknown, used or expired/) }]);

    // The admin grants "that email" a role: refused while the address is not proved, saying why.
    const accountId = await userIdOf(victim);
    const grant = () => api(system.gatewayUrl, `/api/v1/auth/users/${accountId}`, { method: 'PATCH', key: system.keys.admin, body: { role: 'student' } });
    const refused = await grant();
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/has not proved its email address/);

    // The owner resets the password from the mail: every session ends, the squatter's key goes, the address is proved.
    expect((await post('/api/v1/auth/password-reset', { email: victim })).status).toBe(202);
    secrets.add('the owner’s new password');
    const confirmed = await post('/api/v1/auth/password-reset/confirm', { token: await linkToken(victim, 'password_reset'), password: 'the owner’s new password' });
    expect(confirmed.status).toBe(204);
    expect((await api(system.gatewayUrl, '/api/v1/auth/me', { key: squatterSession })).status).toBe(401);
    expect((await api(system.gatewayUrl, '/api/v1/auth/me', { key: squatterKey })).status).toBe(401);
    expect((await login(victim, 'the squatter password')).status).toBe(401);

    const owner = await login(victim, 'the owner’s new password');
    expect(owner.body.user).toMatchObject({ id: accountId, role: 'reader', emailVerified: true });
    expect((await grant()).status).toBe(200);
    expect((await api(system.gatewayUrl, '/api/v1/auth/me', { key: owner.body.token })).body.role).toBe('student');
  }, 120_000);

  it('verifies an address from the registration mail, once', async () => {
    const email = 'verifier@example.org';
    await register(email, 'a verifier password');
    const token = await linkToken(email, 'verify_email');
    expect((await post('/api/v1/auth/verify-email', { token })).status).toBe(204);
    expect((await post('/api/v1/auth/verify-email', { token })).status).toBe(400);
    const session = (await login(email, 'a verifier password')).body;
    expect(session.user.emailVerified).toBe(true);
  }, 60_000);

  it('a leaked key cannot make or revoke keys, nor change the password or sign out everywhere', async () => {
    const email = 'leaky@example.org';
    await register(email, 'a leaky password');
    const session = (await login(email, 'a leaky password')).body.token as string;
    const created = await post('/api/v1/auth/keys', {}, session);
    const leaked = created.body.key as string;
    for (const [path, body] of [
      ['/api/v1/auth/keys', {}],
      ['/api/v1/auth/password', { current: 'a leaky password', new: 'a password the thief picked' }],
      ['/api/v1/auth/sessions/revoke-all', undefined],
    ] as const) {
      const reply = await post(path, body, leaked);
      expect({ path, status: reply.status, type: reply.headers.get('content-type') }).toEqual({ path, status: 403, type: expect.stringMatching(/^application\/problem\+json/) });
    }
    expect((await api(system.gatewayUrl, `/api/v1/auth/keys/${created.body.id}`, { method: 'DELETE', key: leaked })).status).toBe(403);
    // The owner revokes it with their session, and the leak ends.
    expect((await api(system.gatewayUrl, `/api/v1/auth/keys/${created.body.id}`, { method: 'DELETE', key: session })).status).toBe(204);
    await waitFor('the leaked key to stop working', async () => ((await api(system.gatewayUrl, '/api/v1/auth/me', { key: leaked })).status === 401 ? true : undefined));
    const keys = (await api(system.gatewayUrl, '/api/v1/auth/keys', { key: session })).body.keys;
    expect(keys).toEqual([]);
  }, 60_000);

  it('a reset ends every session; a change of password ends the others; sign out everywhere ends them all', async () => {
    const email = 'sessions@example.org';
    await register(email, 'the first password');
    const one = (await login(email, 'the first password')).body.token as string;
    const two = (await login(email, 'the first password')).body.token as string;
    const alive = async (token: string) => (await api(system.gatewayUrl, '/api/v1/auth/me', { key: token })).status === 200;

    secrets.add('the second password');
    expect((await post('/api/v1/auth/password', { current: 'the wrong one!', new: 'the second password' }, one)).status).toBe(403);
    expect((await post('/api/v1/auth/password', { current: 'the first password', new: 'the second password' }, one)).status).toBe(204);
    expect([await alive(one), await alive(two)]).toEqual([true, false]);

    const three = (await login(email, 'the second password')).body.token as string;
    expect((await post('/api/v1/auth/sessions/revoke-all', undefined, three)).status).toBe(204);
    expect([await alive(one), await alive(three)]).toEqual([false, false]);

    const four = (await login(email, 'the second password')).body.token as string;
    const five = (await login(email, 'the second password')).body.token as string;
    expect((await post('/api/v1/auth/password-reset', { email })).status).toBe(202);
    secrets.add('the third password');
    const token = await linkToken(email, 'password_reset');
    expect((await post('/api/v1/auth/password-reset/confirm', { token, password: 'the third password' })).status).toBe(204);
    expect([await alive(four), await alive(five)]).toEqual([false, false]);
    // Once only.
    expect((await post('/api/v1/auth/password-reset/confirm', { token, password: 'the fourth password' })).status).toBe(400);
    expect((await login(email, 'the third password')).status).toBe(200);
  }, 90_000);

  it('register and reset answer alike for known and unknown emails', async () => {
    await register('known@example.org', 'a known password');
    const known = await register('known@example.org', 'another password');
    const unknown = await register('unknown@example.org', 'another password');
    expect(visible(known)).toEqual(visible(unknown));
    const resetKnown = await post('/api/v1/auth/password-reset', { email: 'known@example.org' });
    const resetUnknown = await post('/api/v1/auth/password-reset', { email: 'nobody-at-all@example.org' });
    expect(resetKnown.status).toBe(202);
    expect(visible(resetKnown)).toEqual(visible(resetUnknown));
    // Both were only stored when answered; the relay then mails the account's owner, and closes the other request
    // with nothing sent to the address that has no account.
    await linkToken('known@example.org', 'password_reset');
    await waitFor('the unknown email’s request to be closed', () =>
      withPgClient(system.databaseUrl('gateway'), async (client) => {
        const { rows } = await client.query<{ queued: boolean | null }>(`SELECT queued FROM account_mails WHERE email = 'nobody-at-all@example.org' AND handed_at IS NOT NULL`);
        return rows.length === 1 ? rows[0].queued : undefined;
      }).then((queued) => (queued === false ? true : undefined)),
    );
    expect(await mailsTo('nobody-at-all@example.org')).toEqual([]);
  }, 60_000);

  it('records every identity change in the audit log’s chain, and no stored event holds a secret', async () => {
    const accountId = await userIdOf('victim@example.org');
    const byAction = async (query: string) => (await allAuditEntries(system, query)).map((entry) => entry.action as string);
    await waitFor('the role change in the audit log', async () => ((await byAction(`entityType=user&entityId=${accountId}`)).includes('user.role_changed') ? true : undefined), 30_000);
    expect((await byAction(`entityType=user&entityId=${accountId}`)).reverse()).toEqual([
      'user.registered',
      'user.password_changed',
      'user.sessions_revoked',
      'user.email_verified',
      'user.role_changed',
    ]);
    const [roleChange] = await allAuditEntries(system, `action=user.role_changed&entityId=${accountId}`);
    expect(roleChange).toMatchObject({
      actor: { role: 'admin' },
      subjects: [accountId],
      before: { id: accountId, role: 'reader', emailVerified: true },
      after: { id: accountId, role: 'student', emailVerified: true },
    });
    const keyActions = await byAction('entityType=api_key');
    expect(keyActions).toEqual(expect.arrayContaining(['key.created', 'key.revoked']));
    expect((await api(system.gatewayUrl, '/api/v1/audit/verify', { key: system.keys.admin })).body).toMatchObject({ intact: true });

    // Every event this run stored: the audit log's, and the gateway's outbox; and every secret, the demo keys too.
    const rows = (service: 'audit' | 'gateway', sql: string) =>
      withPgClient(system.databaseUrl(service), async (client) => (await client.query<{ text: string }>(sql)).rows.map((row) => row.text));
    const stored = [
      ...(await rows('audit', 'SELECT row_to_json(e)::text AS text FROM audit_entries e')),
      ...(await rows('gateway', 'SELECT payload::text AS text FROM outbox')),
    ];
    for (const key of Object.values(system.keys)) secrets.add(key);
    expect(stored.length).toBeGreaterThan(20);
    expect(secrets.size).toBeGreaterThan(15);
    // As written, and as JSON escapes it (the passwords with a typographic apostrophe).
    const leaks = [...secrets].filter((secret) => stored.some((text) => text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1))));
    expect(leaks).toEqual([]);
  }, 60_000);
});
