import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createTransport } from 'nodemailer';
import { freePort, waitFor } from '@libs/testing';
import { startMailCatcher, type MailCatcher } from './mail-catcher';
import { planStart } from './services';

describe("npm start's mail catcher (a real SMTP server; mail sent with nodemailer, files read with mailparser)", () => {
  let dir: string;
  let catcher: MailCatcher;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mail-catcher-'));
    catcher = await startMailCatcher({ port: await freePort(), dir: join(dir, 'mail'), root: dir, print: (line) => lines.push(line) });
  });

  afterAll(async () => {
    await catcher?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps each message as an .eml file and prints one line naming its recipient, subject and file', async () => {
    const transport = createTransport({ url: `smtp://127.0.0.1:${catcher.port}` });
    try {
      await transport.sendMail({ from: 'clinic@example.org', to: 'ada@example.org', subject: 'Verify your email address', text: 'Open the link.' });
      // A subject trying to move the terminal's cursor is printed flat.
      await transport.sendMail({ from: 'clinic@example.org', to: 'bob@example.org', subject: 'Hi \u001b[2J there', text: 'x' });
    } finally {
      transport.close();
    }
    await waitFor('two lines', async () => (lines.length >= 2 ? true : undefined));
    const files = readdirSync(join(dir, 'mail')).sort();
    expect(files).toHaveLength(2);
    expect(files.every((file) => file.endsWith('.eml'))).toBe(true);
    expect(lines[0]).toBe(`mail to ada@example.org: "Verify your email address" mail/${files[0]}`);
    expect(lines[1]).toBe(`mail to bob@example.org: "Hi  [2J there" mail/${files[1]}`);
    const kept = await simpleParser(readFileSync(join(dir, 'mail', files[0] as string)));
    expect(kept.subject).toBe('Verify your email address');
    expect(kept.text?.trim()).toBe('Open the link.');
  });

  it('is where npm start points every service: SMTP_URL names its port, moved aside by START_MAIL_PORT', () => {
    const plan = planStart({});
    expect(plan.mail.port).toBe(1025);
    expect(plan.mail.dir).toMatch(/tmp[/\\]mail$/);
    for (const service of [...plan.grpcServices, plan.gateway]) expect(service.env.SMTP_URL).toBe('smtp://127.0.0.1:1025');
    const aside = planStart({ START_MAIL_PORT: '2525' });
    expect(aside.grpcServices.find((service) => service.name === 'notifications')?.env.SMTP_URL).toBe('smtp://127.0.0.1:2525');
  });
});
