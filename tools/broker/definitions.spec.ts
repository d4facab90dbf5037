import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brokerPermissions, EVENT_CONSUMERS, STREAM_PUBLISHERS } from '@libs/bus';
import { GRPC_SERVICE_NAMES } from '@libs/topology';
import { brokerDefinitions, definitionsFile, DEPLOYED, passwordHash, PLACEHOLDER } from './definitions';

describe('the broker definitions', () => {
  it('are committed as the Kubernetes example’s placeholder as tools/broker writes them without passwords', () => {
    // Write it again with `npx tsx tools/broker/main.ts --placeholder`.
    expect(readFileSync(PLACEHOLDER, 'utf8')).toBe(definitionsFile(brokerDefinitions(DEPLOYED)));
  });

  it('give a user to each service that publishes or consumes a stream, and to no other', () => {
    const users = brokerDefinitions(DEPLOYED).users.map((user) => user.name);
    expect(new Set(users)).toEqual(new Set([...Object.values(STREAM_PUBLISHERS), ...EVENT_CONSUMERS]));
    expect(GRPC_SERVICE_NAMES.filter((service) => !users.includes(service))).toEqual(['reference']);
  });

  it('hash a password as RabbitMQ’s rabbit_password_hashing_sha256 does: salt, then SHA-256 of salt and password', () => {
    const salt = Buffer.from([1, 2, 3, 4]);
    const expected = Buffer.concat([salt, createHash('sha256').update(Buffer.concat([salt, Buffer.from('secret')])).digest()]);
    expect(passwordHash('secret', salt)).toBe(expected.toString('base64'));
    expect(passwordHash('secret')).not.toBe(passwordHash('secret'));
  });

  it('grant finance its exchange, and of its consumers’ queues only the binding, never a read', () => {
    const finance = brokerPermissions().find((permission) => permission.service === 'finance');
    const matches = (pattern: string | undefined, name: string) => new RegExp(pattern ?? '(?!)').test(name);
    expect(['finance.events', 'scheduling.events', 'audit.finance-events'].map((name) => matches(finance?.write, name))).toEqual([true, false, true]);
    expect(['audit.finance-events', 'audit.finance-events.dead', 'audit.scheduling-events'].some((name) => matches(finance?.read, name))).toBe(false);
    expect(['audit.finance-events', 'finance.events.dlx', 'scheduling.events'].some((name) => matches(finance?.configure, name))).toBe(false);
  });
});
