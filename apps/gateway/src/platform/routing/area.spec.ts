import { areaOf, declaredIn, operationsOf, routesOf } from './area';
import { operation, route, type Route } from './operation';

const declare = (operationId: string) =>
  operation({ method: 'get', path: `/${operationId}`, operationId, summary: operationId, tag: 'Test', access: { public: true }, request: {}, responses: {} });

const answer = () => undefined;
const ping = declare('ping');
const echo = declare('echo');
const other = declare('other');

describe('areas', () => {
  it('list a module of declarations by name, and parts in the order given', () => {
    const area = areaOf(
      declaredIn({ ping, echo }, () => [route(ping, answer), route(echo, answer)]),
      declaredIn({ other }, () => [route(other, answer)]),
    );
    expect(operationsOf([area]).map((spec) => spec.operationId)).toEqual(['echo', 'ping', 'other']);
    expect(routesOf([area], {}).map((r) => r.spec.operationId)).toEqual(['ping', 'echo', 'other']);
  });

  it.each<[string, Route[], RegExp]>([
    ['a declaration without a route', [route(ping, answer)], /unrouted echo;/],
    ['a route of another declaration', [route(ping, answer), route(echo, answer), route(other, answer)], /routed twice other$/],
    ['a declaration routed twice', [route(ping, answer), route(echo, answer), route(echo, answer)], /routed twice echo$/],
  ])('refuse to build an app with %s', (_case, routes, message) => {
    expect(() => routesOf([declaredIn({ ping, echo }, () => routes)], {})).toThrow(message);
  });
});
