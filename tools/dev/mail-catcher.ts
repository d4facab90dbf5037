/**
 * The local mail catcher of `npm start`: an SMTP server (smtp-server from npm) that takes every message the
 * services send, keeps each as an `.eml` file (open it in any mail client) and prints one line per message, so
 * every mail flow (verify an address, reset a password, an appointment's invitation) can be followed on one machine.
 * It accepts anything and delivers nothing: development only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The most of one message it keeps: far above any mail the services write. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface MailCatcher {
  port: number;
  close(): Promise<void>;
}

export interface MailCatcherOptions {
  host?: string;
  port: number;
  /** Where the `.eml` files go (tmp/mail). */
  dir: string;
  /** Paths in the printed line are shown relative to this. */
  root: string;
  print(line: string): void;
}

/** A value fit for one terminal line: control characters (escape sequences, line breaks) shown as spaces. */
// eslint-disable-next-line no-control-regex
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');

export async function startMailCatcher(options: MailCatcherOptions): Promise<MailCatcher> {
  mkdirSync(options.dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: MAX_MESSAGE_BYTES,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        count += 1;
        const file = join(options.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${count}.eml`);
        writeFileSync(file, raw);
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address).join(', ');
        simpleParser(raw)
          .then((parsed) => parsed.subject ?? '(no subject)')
          .catch(() => '(unreadable)')
          .then((subject) => options.print(`mail to ${printable(to)}: "${printable(subject)}" ${relative(options.root, file)}`))
          .finally(() => callback());
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
