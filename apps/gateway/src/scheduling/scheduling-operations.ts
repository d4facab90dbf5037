import * as blocks from './block-operations';
import * as locations from './location-operations';
import * as resources from './resource-operations';
import * as schedules from './schedule-operations';
import * as services from './service-operations';
import * as slots from './slot-operations';

/** Every declared operation of the scheduling area, for the operation list. */
export const schedulingOperations = [locations, resources, services, schedules, blocks, slots].flatMap((area) => Object.values(area));
