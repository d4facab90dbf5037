/** `/scheduling.v1.SchedulingService/HoldSlot` → the service and the method, as health checks and metrics name them. */
export function namesOf(path: string): { service: string; method: string } {
  const slash = path.lastIndexOf('/');
  return { service: path.slice(1, slash), method: path.slice(slash + 1) };
}
