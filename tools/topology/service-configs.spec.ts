import { parseConfig } from '@libs/config';
import { addressVariable, calleesOf, declarationOf, isGateway, mainPortOf, SERVICE_NAMES, TOPOLOGY } from '@libs/topology';
import { configSchemaOf } from './service-configs';

/*
 * A service runs alone with no variable set, on the defaults of its configuration. Those of its ports, database and
 * addresses come from the declaration (libs/topology) through libs/config (grpcServiceFields, gatewayFields), which
 * npm start, the tests and the manifests follow too; a configuration that wrote its own would drift, and fails here.
 */
describe.each(SERVICE_NAMES)('the configuration of %s', (service) => {
  const declared = declarationOf(TOPOLOGY, service);
  const schema = configSchemaOf(service);
  const defaults = parseConfig(schema, {}) as Record<string, unknown>;

  it('listens on its declared ports by default', () => {
    const mainPort = isGateway(TOPOLOGY, service) ? 'PORT' : 'GRPC_PORT';
    expect({ [mainPort]: defaults[mainPort], METRICS_PORT: defaults.METRICS_PORT }).toEqual({
      [mainPort]: mainPortOf(declared),
      METRICS_PORT: declared.metricsPort,
    });
  });

  it('uses its declared database by default', () => {
    expect(new URL(String(defaults.DATABASE_URL)).pathname).toBe(`/${declared.database}`);
  });

  it('reads the address of each service it calls, and of no other, at its declared port by default', () => {
    const addresses = Object.keys(schema.shape).filter((variable) => variable.endsWith('_ADDR'));
    const callees = calleesOf(TOPOLOGY, service);
    expect(Object.fromEntries(addresses.map((variable) => [variable, defaults[variable]]))).toEqual(
      Object.fromEntries(callees.map((callee) => [addressVariable(callee), `127.0.0.1:${mainPortOf(declarationOf(TOPOLOGY, callee))}`])),
    );
  });
});
