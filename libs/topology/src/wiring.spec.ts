import { TOPOLOGY } from './services';
import { callersOf, calleesOf, placementEnv, type Placement } from './wiring';

describe('wiring', () => {
  const placement: Placement = {
    databaseUrl: (database) => `postgres://db/run_${database}`,
    ports: { main: 1001, metrics: 1002 },
    addressOf: (name) => `${name}:1`,
  };

  it('has the gateway call every gRPC service, and each gRPC service what it declares', () => {
    expect(calleesOf(TOPOLOGY, 'gateway')).toEqual(['reference', 'finance', 'audit', 'scheduling', 'notifications']);
    expect(calleesOf(TOPOLOGY, 'scheduling')).toEqual(['reference']);
    expect(callersOf(TOPOLOGY, 'reference')).toEqual(['gateway', 'scheduling']);
    expect(callersOf(TOPOLOGY, 'finance')).toEqual(['gateway']);
  });

  it("gives an instance its database, its ports and the address of every service it calls", () => {
    expect(placementEnv(TOPOLOGY, 'scheduling', placement)).toEqual({
      DATABASE_URL: 'postgres://db/run_scheduling',
      GRPC_PORT: '1001',
      METRICS_PORT: '1002',
      REFERENCE_ADDR: 'reference:1',
    });
    expect(placementEnv(TOPOLOGY, 'gateway', placement)).toEqual({
      DATABASE_URL: 'postgres://db/run_gateway',
      PORT: '1001',
      METRICS_PORT: '1002',
      REFERENCE_ADDR: 'reference:1',
      FINANCE_ADDR: 'finance:1',
      AUDIT_ADDR: 'audit:1',
      SCHEDULING_ADDR: 'scheduling:1',
      NOTIFICATIONS_ADDR: 'notifications:1',
    });
  });

  it('refuses a service that is not declared', () => {
    expect(() => placementEnv(TOPOLOGY, 'billing', placement)).toThrow('no service billing is declared');
  });
});
