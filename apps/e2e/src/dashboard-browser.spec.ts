import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { mailedLinkToken, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { api } from './http';

const ROOT = resolve(__dirname, '../../..');
const CHROMIUM = '/usr/bin/chromium';

describe('the dashboard in a real browser', () => {
  let system: RunningSystem;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    // CI installs chromium (.ci/run); a missing browser is a broken setup, not a reason to skip.
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`);
    }
    system = await startSystem();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.gatewayUrl });
    page = await context.newPage();
    // A violated Content-Security-Policy shows up as a console error.
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    // The last state of the page, also when a test failed half-way.
    if (page) await page.screenshot({ path: screenshotPath(system, 'dashboard-last.png'), fullPage: true }).catch(() => undefined);
    await browser?.close();
    await system?.shutdown();
  }, 60_000);

  it('signs up, creates a key, queries diseases with it, revokes it, and the key then gets 401', async () => {
    const served = await page.goto(`${system.gatewayUrl}/dashboard`);
    const policy = served?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(served?.headers()['x-frame-options']).toBe('DENY');
    expect(served?.headers()['x-content-type-options']).toBe('nosniff');

    // Sign up, with the keyboard only.
    await page.getByLabel('Email').first().focus();
    await page.keyboard.type('browser-user@example.org');
    await page.keyboard.press('Tab');
    await page.keyboard.type('a fine password');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Signed in as browser-user@example.org' }).waitFor();
    await expectText(page, '#account-role', 'reader');
    // A reader learns why finance will refuse it, and where the docs are.
    await expectText(page, '#reader-hint', 'Finance answers 403 to a reader');
    expect(await page.getByRole('link', { name: 'API documentation' }).getAttribute('href')).toBe('/docs');
    // Signed in, the page creates the first key.
    await expectText(page, '#notice', 'Your account is ready. Here is your first key.');
    const firstKey = await page.locator('#new-key-value').textContent();
    expect(firstKey).toMatch(/^cfk_/);

    // Create a second key; it is shown once, with a copy button.
    await page.getByLabel('Name of a new key').fill('from the browser');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('cell', { name: 'from the browser' }).waitFor();
    const key = (await page.locator('#new-key-value').textContent()) ?? '';
    expect(key).toMatch(/^cfk_/);
    expect(key).not.toBe(firstKey);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expectText(page, '#notice', 'The key is copied to the clipboard.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);

    // Query the reference data with it from the page.
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key);
    await page.getByLabel('Disease name').fill('asthma');
    await page.getByRole('button', { name: 'Run GET /api/v1/diseases' }).click();
    await expectText(page, '#try-status', 'Status 200');
    const shown = JSON.parse((await page.locator('#try-result').textContent()) ?? '{}');
    expect(shown.diseases.map((d: { Disease_Name: string }) => d.Disease_Name)).toContain('Asthma');

    // At phone width the key table fits the screen: nothing scrolls sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(await page.locator('#keys-table').evaluate((table) => table.getBoundingClientRect().right)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: screenshotPath(system, 'dashboard-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });

    // Revoking asks first: declined, the key stays and still works.
    const prefix = key.split('_').slice(0, 2).join('_');
    const revoke = page.getByRole('button', { name: `Revoke key ${prefix}` });
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await revoke.click();
    await waitFor('the confirmation', async () => (questions.length > 0 ? true : undefined));
    expect(questions[0]).toContain(`Revoke key ${prefix} (from the browser)?`);
    await revoke.waitFor();
    expect((await api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key })).status).toBe(200);

    // Confirmed: the page says so, and the key now gets 401, from the page and from any client.
    page.once('dialog', (dialog) => void dialog.accept());
    await revoke.click();
    await expectText(page, '#notice', `Key ${prefix} is revoked. Requests with it now get 401.`);
    await page.getByRole('button', { name: 'Run GET /api/v1/diseases' }).click();
    await expectText(page, '#try-status', 'Status 401');
    await expectText(page, '#error', 'Unauthorized (401): the API key is unknown or revoked');
    expect((await api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key })).status).toBe(401);

    await page.screenshot({ path: screenshotPath(system, 'dashboard-after-revoke.png'), fullPage: true });
    // Only the deliberate 401s: no CSP violation, no script error, no missing file.
    expect(consoleErrors.filter((e) => !e.includes('status of 401'))).toEqual([]);
  }, 60_000);

  it('shows an error message when sign-in fails', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('#sign-in-email').fill('browser-user@example.org');
    await page.locator('#sign-in-password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectText(page, '#error', 'Unauthorized (401): the email or password is wrong');
  }, 30_000);

  it('signing up with an email that has an account fails at sign-in, and says what to do', async () => {
    await page.locator('#sign-up-email').fill('browser-user@example.org');
    await page.locator('#sign-up-password').fill('another fine password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectText(page, '#error', 'If this email has an account already, sign in with its password.');
  }, 30_000);

  it('verifies the address from the mailed link; then an admin can make the user a clinician, which the page explains', async () => {
    const { body } = await api(system.gatewayUrl, '/api/v1/auth/users?limit=500', { key: system.keys.admin });
    const user = (body as { users: { id: string; email: string }[] }).users.find((u) => u.email === 'browser-user@example.org');
    const grant = () => api(system.gatewayUrl, `/api/v1/auth/users/${user?.id}`, { key: system.keys.admin, method: 'PATCH', body: { role: 'clinician' } });
    expect((await grant()).status).toBe(409);
    // The link of the verification mail opens the dashboard, which verifies at once and takes the token out of the address bar.
    const token = await mailedLinkToken(system, 'browser-user@example.org', 'verify_email');
    await page.goto(`${system.gatewayUrl}/dashboard/#verify?token=${token}`);
    await expectText(page, '#notice', 'Your email address is verified.');
    expect(page.url()).not.toContain(token);
    const changed = await grant();
    expect(changed.status).toBe(200);
    await page.locator('#sign-in-email').fill('browser-user@example.org');
    await page.locator('#sign-in-password').fill('a fine password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectText(page, '#account-role', 'clinician');
    await expectText(page, '#account-verified', 'verified');
    expect(await page.locator('#verify-hint').isHidden()).toBe(true);
    await expectText(page, '#clinician-hint', 'As a clinician your keys run the schedules');
    expect(await page.locator('#reader-hint').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Sign out' }).click();
  }, 30_000);

  it('gives the clinician a calendar feed URL to copy, which a calendar app can read until it is revoked', async () => {
    await page.locator('#sign-in-email').fill('browser-user@example.org');
    await page.locator('#sign-in-password').fill('a fine password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectText(page, '#no-feeds', 'You have no calendar feed.');
    await page.getByRole('button', { name: 'Create a feed URL' }).click();
    await expectText(page, '#notice', 'Copy its URL now');
    const url = (await page.locator('#new-feed-url').textContent()) ?? '';
    expect(url).toMatch(/\/api\/v1\/calendar\/feeds\/cal_[A-Za-z0-9_-]{43}\.ics$/);
    // One feed is enough: the create button goes until it is revoked.
    expect(await page.getByRole('button', { name: 'Create a feed URL' }).isHidden()).toBe(true);
    await page.locator('#copy-feed').click();
    await expectText(page, '#notice', 'The feed URL is copied to the clipboard.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);
    const feedPath = new URL(url).pathname;
    const read = await api(system.gatewayUrl, feedPath);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('text/calendar; charset=utf-8');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: /^Revoke the feed created/ }).click();
    await expectText(page, '#notice', 'The calendar feed is revoked: its URL no longer works.');
    expect(await page.locator('#new-feed-panel').isHidden()).toBe(true);
    await page.getByRole('button', { name: 'Create a feed URL' }).waitFor();
    expect((await api(system.gatewayUrl, feedPath)).status).toBe(404);
    await page.getByRole('button', { name: 'Sign out' }).click();
  }, 30_000);

  it('keeps a new session when the answer to the one signed out before it comes late', async () => {
    // The calendar feeds load slowly, so the first session's load is still out when it signs out and the next signs in.
    const feedLoads: Promise<unknown>[] = [];
    await page.route('**/api/v1/calendar/feeds', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const answered = new Promise((resolveLoad) => setTimeout(resolveLoad, 1_000)).then(() => route.continue());
      feedLoads.push(answered);
      return answered;
    });
    try {
      const signIn = async () => {
        await page.locator('#sign-in-email').fill('browser-user@example.org');
        await page.locator('#sign-in-password').fill('a fine password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expectText(page, '#account-role', 'clinician');
      };
      await signIn();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.locator('#sign-in-email').waitFor();
      await signIn();
      await waitFor('both sessions to have loaded their feeds', async () => (feedLoads.length === 2 ? true : undefined));
      await Promise.all(feedLoads);
      // The late 401 of the ended session neither signs the new one out nor shows an error.
      await expectText(page, '#no-feeds', 'You have no calendar feed.');
      expect(await page.locator('#signed-in').isVisible()).toBe(true);
      expect(await page.locator('#error').isHidden()).toBe(true);
    } finally {
      await page.unroute('**/api/v1/calendar/feeds');
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
  }, 30_000);

  it('resets a forgotten password from the mailed link, changes it, and signs out everywhere', async () => {
    const email = 'browser-user@example.org';
    const alive = async (token: string) => (await api(system.gatewayUrl, '/api/v1/auth/me', { key: token })).status === 200;
    const elsewhere = (await api(system.gatewayUrl, '/api/v1/auth/login', { method: 'POST', body: { email, password: 'a fine password' } })).body.token;

    await page.locator('#reset-email').fill(email);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await expectText(page, '#notice', 'If this email has an account, a link to set a new password is on its way to it');
    const token = await mailedLinkToken(system, email, 'password_reset');
    await page.goto(`${system.gatewayUrl}/dashboard/#reset?token=${token}`);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    expect(page.url()).not.toContain(token);
    await page.getByLabel('New password (8 to 128 characters)', { exact: true }).fill('a brand new password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expectText(page, '#notice', 'Your new password is set, and every session of your account has ended.');
    expect(await alive(elsewhere)).toBe(false);

    await page.locator('#sign-in-email').fill(email);
    await page.locator('#sign-in-password').fill('a brand new password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectText(page, '#account-role', 'clinician');
    const another = (await api(system.gatewayUrl, '/api/v1/auth/login', { method: 'POST', body: { email, password: 'a brand new password' } })).body.token;
    await page.locator('#current-password').fill('a brand new password');
    await page.locator('#new-password').fill('the newest password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expectText(page, '#notice', 'Your password is changed. Every other session of your account has ended.');
    expect(await alive(another)).toBe(false);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expectText(page, '#account-role', 'clinician');

    await page.getByRole('button', { name: 'End every session' }).click();
    await expectText(page, '#notice', 'Every session of your account has ended, this one too.');
    await page.locator('#sign-in-email').waitFor();
    expect(await page.locator('#signed-in').isHidden()).toBe(true);
    const last = (await api(system.gatewayUrl, '/api/v1/auth/login', { method: 'POST', body: { email, password: 'the newest password' } })).status;
    expect(last).toBe(200);
    await page.screenshot({ path: screenshotPath(system, 'dashboard-signed-out-everywhere.png'), fullPage: true });
  }, 60_000);

  it('renders the API documentation (Swagger UI) under its Content-Security-Policy', async () => {
    consoleErrors.length = 0;
    const served = await page.goto(`${system.gatewayUrl}/docs`);
    expect(served?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(served?.headers()['x-frame-options']).toBe('DENY');
    await page.getByRole('heading', { name: /Clinical reference and student finance API/ }).waitFor();
    // From 150 tags and operations on, Swagger UI renders the list virtually, only what the window shows: scroll to
    // the reference operations, which the first sections push below it.
    const diseases = page.getByText('/api/v1/diseases', { exact: true }).first();
    await waitFor('the diseases operation in view', async () => {
      if ((await diseases.count()) > 0) return true;
      await page.mouse.wheel(0, 400);
      return undefined;
    });
    await page.screenshot({ path: screenshotPath(system, 'docs.png') });
    expect(consoleErrors).toEqual([]);
  }, 30_000);

  it('cannot be framed by another site', async () => {
    // The other site frames the two pages, and /healthz, which is no page and may be framed: it shows that the
    // gateway was reachable from the frames. A frame the browser refused shows its error page instead.
    const framed = ['/dashboard/', '/docs', '/healthz'].map((path) => `${system.gatewayUrl}${path}`);
    const otherSite = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html').end(framed.map((url) => `<iframe src="${url}"></iframe>`).join(''));
    });
    await new Promise<void>((resolveListening) => otherSite.listen(0, '127.0.0.1', resolveListening));
    try {
      await page.goto(`http://localhost:${(otherSite.address() as AddressInfo).port}/`);
      const urls = await waitFor('every frame to have loaded or been refused', async () => {
        const loaded = page.frames().slice(1).map((frame) => frame.url());
        return loaded.length === framed.length && loaded.every(Boolean) ? loaded : undefined;
      });
      expect(urls).toEqual([
        'chrome-error://chromewebdata/',
        'chrome-error://chromewebdata/',
        framed[2],
      ]);
    } finally {
      otherSite.close();
    }
  }, 30_000);
});

/** Screenshots sit beside the run's service logs in test-artifacts/<run>/. */
function screenshotPath(system: RunningSystem, name: string): string {
  const dir = join(ROOT, 'test-artifacts', system.namespace);
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

async function expectText(page: Page, selector: string, text: string): Promise<void> {
  const locator = page.locator(selector);
  await locator.filter({ hasText: text }).waitFor({ timeout: 10_000 }).catch(() => undefined);
  expect(await locator.textContent()).toContain(text);
}
