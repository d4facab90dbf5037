import { servicesOf, mainPortOf } from './wiring';
import { TOPOLOGY } from './services';

describe('the declared services', () => {
  const services = servicesOf(TOPOLOGY);
  const grpcNames = TOPOLOGY.grpcServices.map((service) => service.name);
  const duplicates = (values: unknown[]) => values.filter((value, index) => values.indexOf(value) !== index);

  it('have names that serve as an app folder, a <NAME>_ADDR variable, a database and a Kubernetes name', () => {
    expect(services.map((service) => service.name).filter((name) => !/^[a-z][a-z0-9]*$/.test(name))).toEqual([]);
    expect(duplicates(services.map((service) => service.name))).toEqual([]);
  });

  it('listen on ports and own databases of their own', () => {
    expect(duplicates(services.flatMap((service) => [mainPortOf(service), service.metricsPort]))).toEqual([]);
    expect(duplicates(services.map((service) => service.database))).toEqual([]);
  });

  it('call only other declared gRPC services', () => {
    const wrong = TOPOLOGY.grpcServices.flatMap(({ name, calls }) =>
      calls.filter((callee) => callee === name || !grpcNames.includes(callee)).map((callee) => `${name} → ${callee}`),
    );
    expect(wrong).toEqual([]);
  });
});
