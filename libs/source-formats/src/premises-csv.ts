import { readWithHeader } from './delimited';
import type { ParsedRow, ReadOptions } from './text-lines';

export const PREMISE_TYPES = ['pharmacy', 'hospital', 'clinic', 'laboratory'] as const;

/** One premise of the project's documented CSV layout (docs/IMPORT.md). */
export interface PremiseRow {
  id: string;
  name: string;
  type: (typeof PREMISE_TYPES)[number];
  addressLine1: string;
  addressLine2: string;
  city: string;
  region: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  phone: string;
  openingHours: string;
  latitude?: number;
  longitude?: number;
  services: string[];
}

export const PREMISE_COLUMNS = [
  'id', 'name', 'type', 'address_line1', 'address_line2', 'city', 'region', 'postal_code', 'country', 'phone',
  'opening_hours', 'latitude', 'longitude', 'services',
] as const;

function coordinate(field: string, limit: number): number | undefined | 'bad' {
  if (field === '') return undefined;
  const value = Number(field);
  return /^-?\d+(\.\d+)?$/.test(field) && Math.abs(value) <= limit ? value : 'bad';
}

/** Premises from CSV with the header of PREMISE_COLUMNS. */
export async function* readPremisesCsv(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<PremiseRow>> {
  for await (const row of readWithHeader(path, PREMISE_COLUMNS, { ...options, delimiter: ',', quoted: true })) {
    if ('error' in row) {
      yield row;
      continue;
    }
    const r = row.record;
    const latitude = coordinate(r.latitude, 90);
    const longitude = coordinate(r.longitude, 180);
    const problem = !r.id || !r.name || !r.address_line1 || !r.city
      ? 'id, name, address_line1 and city are required'
      : !(PREMISE_TYPES as readonly string[]).includes(r.type)
        ? `type must be one of ${PREMISE_TYPES.join(', ')}, found ${JSON.stringify(r.type)}`
        : !/^[A-Z]{2}$/.test(r.country)
          ? `country must be an ISO 3166-1 alpha-2 code such as KE, found ${JSON.stringify(r.country)}`
          : latitude === 'bad' || longitude === 'bad' || (latitude === undefined) !== (longitude === undefined)
            ? 'latitude (-90..90) and longitude (-180..180) must both be decimal degrees, or both empty'
            : undefined;
    if (problem) {
      yield { line: row.line, error: problem };
      continue;
    }
    yield {
      line: row.line,
      record: {
        id: r.id, name: r.name, type: r.type as PremiseRow['type'], addressLine1: r.address_line1,
        addressLine2: r.address_line2, city: r.city, region: r.region, postalCode: r.postal_code, country: r.country,
        phone: r.phone, openingHours: r.opening_hours,
        latitude: latitude as number | undefined, longitude: longitude as number | undefined,
        services: r.services ? r.services.split(';').map((s) => s.trim()).filter(Boolean) : [],
      },
    };
  }
}
