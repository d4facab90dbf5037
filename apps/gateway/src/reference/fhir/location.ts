import type { catalogueV1 } from '@libs/contracts';
import { compact, type FhirResource } from './bundle';
import { SYSTEMS } from './systems';

/** HL7 v3 RoleCode service delivery location types. */
const LOCATION_TYPE: Record<string, { code: string; display: string }> = {
  pharmacy: { code: 'PHARM', display: 'Pharmacy' },
  hospital: { code: 'HOSP', display: 'Hospital' },
  clinic: { code: 'PC', display: 'primary care clinic' },
  laboratory: { code: 'MBL', display: 'medical laboratory' },
};

const DAYS = ['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'];
const FHIR_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/**
 * "Mo-Fr 08:00-17:00; Sa 09:00-13:00; Su off" or "24/7" (OpenStreetMap
 * opening_hours, the form the catalogue stores) → FHIR hoursOfOperation, which
 * lists open times only, so closed rules drop out. Undefined for anything else;
 * the text then travels in availabilityExceptions.
 */
export function hoursOfOperation(text: string) {
  if (text.trim() === '24/7') return [{ daysOfWeek: FHIR_DAYS, allDay: true }];
  const rules = text.split(';').map((rule) => rule.trim()).filter((rule) => rule && !/\boff$/i.test(rule));
  const parsed = rules.map((rule) => {
    const match = /^(\w\w)(?:-(\w\w))?\s+(\d\d:\d\d)-(\d\d:\d\d)$/i.exec(rule);
    if (!match?.[1] || !match[3] || !match[4]) return undefined;
    const from = DAYS.indexOf(match[1].toLowerCase());
    const to = match[2] ? DAYS.indexOf(match[2].toLowerCase()) : from;
    if (from < 0 || to < from) return undefined;
    return { daysOfWeek: FHIR_DAYS.slice(from, to + 1), openingTime: `${match[3]}:00`, closingTime: `${match[4]}:00` };
  });
  return parsed.length > 0 && parsed.every(Boolean) ? parsed : undefined;
}

/** A premise → Location, marked in its description when it is sample data. */
export function location(premise: catalogueV1.Premise): FhirResource {
  const type = LOCATION_TYPE[premise.type];
  const address = premise.address;
  const hours = hoursOfOperation(premise.openingHours);
  return {
    resourceType: 'Location',
    id: premise.id,
    ...compact({
      identifier: [{ system: SYSTEMS.premiseCode, value: premise.code }],
      status: 'active',
      name: premise.name,
      description: premise.sampleData ? 'Sample data: not a real premise.' : undefined,
      mode: 'instance',
      type: [compact({ coding: type ? [{ system: SYSTEMS.roleCode, ...type }] : undefined, text: premise.type })],
      telecom: premise.phone ? [{ system: 'phone', value: premise.phone }] : undefined,
      address: address
        ? compact({
            line: [address.line1, address.line2].filter(Boolean),
            city: address.city,
            state: address.region,
            postalCode: address.postalCode,
            country: address.country,
          })
        : undefined,
      position:
        premise.latitude !== undefined && premise.longitude !== undefined
          ? { latitude: premise.latitude, longitude: premise.longitude }
          : undefined,
      hoursOfOperation: hours,
      availabilityExceptions: hours ? undefined : premise.openingHours,
    }),
  };
}
