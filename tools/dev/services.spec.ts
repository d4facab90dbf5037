import { planStart } from './services';

describe('planStart', () => {
  it('gives every service the ports, database and RabbitMQ names users know when no START_* is set', () => {
    const plan = planStart({});
    expect(plan.grpcServices).toEqual([
      {
        name: 'reference',
        address: '127.0.0.1:50051',
        env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/reference', GRPC_PORT: '50051', METRICS_PORT: '9464', SMTP_URL: 'smtp://127.0.0.1:1025' },
      },
      {
        name: 'finance',
        address: '127.0.0.1:50052',
        env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/finance', GRPC_PORT: '50052', METRICS_PORT: '9465', SMTP_URL: 'smtp://127.0.0.1:1025' },
      },
      {
        name: 'audit',
        address: '127.0.0.1:50053',
        env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/audit', GRPC_PORT: '50053', METRICS_PORT: '9466', SMTP_URL: 'smtp://127.0.0.1:1025' },
      },
      {
        name: 'scheduling',
        address: '127.0.0.1:50054',
        env: {
          DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/scheduling',
          GRPC_PORT: '50054',
          METRICS_PORT: '9468',
          SMTP_URL: 'smtp://127.0.0.1:1025',
          REFERENCE_ADDR: '127.0.0.1:50051',
        },
      },
      {
        name: 'notifications',
        address: '127.0.0.1:50055',
        env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/notifications', GRPC_PORT: '50055', METRICS_PORT: '9469', SMTP_URL: 'smtp://127.0.0.1:1025' },
      },
    ]);
    expect(plan.gateway).toEqual({
      name: 'gateway',
      url: 'http://localhost:3000',
      env: {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/gateway',
        PORT: '3000',
        METRICS_PORT: '9467',
        SMTP_URL: 'smtp://127.0.0.1:1025',
        REFERENCE_ADDR: '127.0.0.1:50051',
        FINANCE_ADDR: '127.0.0.1:50052',
        AUDIT_ADDR: '127.0.0.1:50053',
        SCHEDULING_ADDR: '127.0.0.1:50054',
        NOTIFICATIONS_ADDR: '127.0.0.1:50055',
      },
    });
    expect(plan.logDir).toMatch(/\/tmp\/logs$/);
  });

  it('moves a second system aside: namespaced databases and RabbitMQ names, its own ports, and the gateway wired to them', () => {
    const plan = planStart({
      START_NAMESPACE: 'second',
      START_POSTGRES_URL: 'postgres://postgres@db:5433',
      START_LOG_DIR: '/var/tmp/second',
      START_GATEWAY_PORT: '3100',
      START_FINANCE_GRPC_PORT: '50152',
      START_FINANCE_METRICS_PORT: '9565',
      START_REFERENCE_GRPC_PORT: '50151',
    });
    const finance = plan.grpcServices.find((service) => service.name === 'finance');
    expect(finance).toEqual({
      name: 'finance',
      address: '127.0.0.1:50152',
      env: {
        DATABASE_URL: 'postgres://postgres@db:5433/second_finance',
        AMQP_NAMESPACE: 'second.',
        GRPC_PORT: '50152',
        METRICS_PORT: '9565',
        SMTP_URL: 'smtp://127.0.0.1:1025',
      },
    });
    expect(plan.gateway.url).toBe('http://localhost:3100');
    expect(plan.gateway.env).toMatchObject({
      DATABASE_URL: 'postgres://postgres@db:5433/second_gateway',
      PORT: '3100',
      FINANCE_ADDR: '127.0.0.1:50152',
      REFERENCE_ADDR: '127.0.0.1:50151',
    });
    // A service reaches the services it calls where this system runs them.
    expect(plan.grpcServices.find((service) => service.name === 'scheduling')?.env).toMatchObject({
      DATABASE_URL: 'postgres://postgres@db:5433/second_scheduling',
      REFERENCE_ADDR: '127.0.0.1:50151',
    });
    expect(plan.logDir).toBe('/var/tmp/second');
  });

  it.each([
    ['START_NAMESPACE', 'Robert"); DROP'],
    ['START_GATEWAY_PORT', 'abc'],
    ['START_AUDIT_METRICS_PORT', '70000'],
    ['START_POSTGRES_URL', 'mysql://db'],
  ])('refuses %s=%s, naming the variable', (variable, value) => {
    expect(() => planStart({ [variable]: value })).toThrow(new RegExp(`^invalid configuration: ${variable}=`));
  });
});
