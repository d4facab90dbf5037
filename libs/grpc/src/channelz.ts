/**
 * Channelz keeps per-call statistics for grpc's introspection service, which
 * is not exposed here, so nothing reads them: CPU on every call for nothing.
 * Every server and client of the project turns it off.
 */
export const WITHOUT_CHANNELZ = { 'grpc.enable_channelz': 0 } as const;
