// Container health check for the gRPC services: asks the standard
// grpc.health.v1 service on GRPC_PORT and exits 0 only when it is SERVING.
const grpc = require('@grpc/grpc-js');
const { service } = require('grpc-health-check');

const Health = grpc.makeGenericClientConstructor(service, 'Health');
const client = new Health(`127.0.0.1:${process.env.GRPC_PORT}`, grpc.credentials.createInsecure());
client.Check({ service: '' }, { deadline: Date.now() + 2000 }, (error, response) => {
  process.exit(!error && response.status === 'SERVING' ? 0 : 1);
});
