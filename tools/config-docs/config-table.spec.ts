import { z } from 'zod';
import { env } from '@libs/config';
import { configTable } from './config-table';

const shared = () => ({
  DATABASE_URL: env.url('postgres://h/db', ['postgres:']).describe('the database'),
  PORT: env.port(1).describe('a port'),
});

describe('configTable', () => {
  it('writes one row per variable, with its services, default, range and description', () => {
    const table = configTable([
      { service: 'alpha', schema: z.object({ ...shared(), PORT: env.port(1).describe('a port') }) },
      { service: 'beta', schema: z.object({ ...shared(), PORT: env.port(2).describe('a port'), ONLY: env.text('').describe('its own') }) },
    ]);
    expect(table.split('\n')).toEqual([
      '| Variable | Service | Default | Meaning |',
      '|---|---|---|---|',
      '| `DATABASE_URL` | all | `postgres://h/db` | the database |',
      '| `PORT` | all | alpha `1`, beta `2` (0–65535) | a port |',
      '| `ONLY` | beta | (empty) | its own |',
    ]);
  });

  it("writes a default that names its service once, and a family of variables in one row", () => {
    const db = (service: string) => env.url(`postgres://h/${service}`, ['postgres:']).describe('the database');
    const limit = (label: string, fallback: number) => env.int(fallback, 1, 9).meta({ description: 'a limit', row: 'LIMIT_<ROLE>', label });
    const table = configTable([
      { service: 'alpha', schema: z.object({ DATABASE_URL: db('alpha'), LIMIT_A: limit('a', 1), LIMIT_B: limit('b', 2) }) },
      { service: 'beta', schema: z.object({ DATABASE_URL: db('beta') }) },
    ]);
    expect(table).toContain('| `DATABASE_URL` | all | `postgres://h/<service>` | the database |');
    expect(table).toContain('| `LIMIT_<ROLE>` | alpha | a `1`, b `2` (1–9) | a limit |');
  });

  it('writes a labelled default that several services share once', () => {
    const address = (label: string, fallback: string) => env.text(fallback).meta({ description: 'an address', row: '<NAME>_ADDR', label });
    const table = configTable([
      { service: 'alpha', schema: z.object({ A_ADDR: address('a', 'a:1'), B_ADDR: address('b', 'b:2') }) },
      { service: 'beta', schema: z.object({ A_ADDR: address('a', 'a:1') }) },
    ]);
    expect(table).toContain('| `<NAME>_ADDR` | all | a `a:1`, b `b:2` | an address |');
  });

  it('refuses a variable without a description', () => {
    expect(() => configTable([{ service: 'alpha', schema: z.object({ PORT: env.port(1) }) }])).toThrow(/alpha: PORT has no description/);
  });
});
