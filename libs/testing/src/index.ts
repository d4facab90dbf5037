export { startSystem, type RunningSystem, type ServiceName } from './system';
export { freePort, uniqueNamespace } from './resources';
export { createScratchDatabase, type ScratchDatabase } from './scratch-database';
export { waitFor } from './wait-for';
export { sharedDataDir, sharedDataFile } from './shared-data';
