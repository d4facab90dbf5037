import type { Scenario } from '../context';

/** Bare node:http answering a fixed JSON: what this machine can do before any framework or database. */
export const httpFloor: Scenario = async (context) => {
  context.record({
    scenario: 'http floor',
    target: 'node:http',
    result: await context.load(context.bareHttp.url, [{ path: '/' }]),
  });
};
