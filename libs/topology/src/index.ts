export {
  GATEWAY_NAME,
  GRPC_SERVICE_NAMES,
  SERVICE_NAMES,
  TOPOLOGY,
  type CalleeName,
  type GrpcServiceName,
  type ServiceName,
  type Topology,
} from './services';
export {
  addressVariable,
  type AddressVariable,
  calleesOf,
  callersOf,
  declarationOf,
  isGateway,
  mainPortOf,
  placementEnv,
  servicesOf,
  type Placement,
} from './wiring';
