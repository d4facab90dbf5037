import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSystem, type RunningSystem } from '@libs/testing';

const CHROMIUM = '/usr/bin/chromium';

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** The /docs page in a real browser, checked with axe-core (WCAG 2 A and AA rules). */
describe('the API docs page in a real browser', () => {
  let system: RunningSystem;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // CI installs chromium (.ci/run); a missing browser is a broken setup, not a reason to skip.
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`);
    }
    system = await startSystem();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    // The page's CSP allows only its own scripts; axe is the test's, so the test context lifts the CSP.
    page = await (await browser.newContext({ bypassCSP: true })).newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await system?.shutdown();
  }, 60_000);

  it('renders every operation and has no serious or critical accessibility violation', async () => {
    await page.goto(`${system.gatewayUrl}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(40);
    await page.addScriptTag({ content: readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
    // A string, evaluated in the page: this project's types know no DOM.
    const result = (await page.evaluate("axe.run({ runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] })")) as AxeResult;
    const serious = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, elements: v.nodes.length, first: v.nodes[0]?.target }));
    expect(serious).toEqual([]);
  });
});
