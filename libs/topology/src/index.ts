export {
  GRPC_SERVICE_NAMES,
  SERVICE_NAMES,
  TOPOLOGY,
  type GatewayDeclaration,
  type GrpcServiceDeclaration,
  type GrpcServiceName,
  type ServiceName,
  type Topology,
} from './services';
export {
  addressVariable,
  calleesOf,
  callersOf,
  declarationOf,
  isGateway,
  mainPortOf,
  placementEnv,
  servicesOf,
  type Placement,
} from './wiring';
