import { readConverted } from './delimited';
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

function toPremise(r: Record<(typeof PREMISE_COLUMNS)[number], string>): PremiseRow | string {
  const latitude = coordinate(r.latitude, 90);
  const longitude = coordinate(r.longitude, 180);
  if (!r.id || !r.name || !r.address_line1 || !r.city) return 'id, name, address_line1 and city are required';
  if (!(PREMISE_TYPES as readonly string[]).includes(r.type)) {
    return `type must be one of ${PREMISE_TYPES.join(', ')}, found ${JSON.stringify(r.type)}`;
  }
  if (!/^[A-Z]{2}$/.test(r.country)) return `country must be an ISO 3166-1 alpha-2 code such as KE, found ${JSON.stringify(r.country)}`;
  if (latitude === 'bad' || longitude === 'bad' || (latitude === undefined) !== (longitude === undefined)) {
    return 'latitude (-90..90) and longitude (-180..180) must both be decimal degrees, or both empty';
  }
  return {
    id: r.id, name: r.name, type: r.type as PremiseRow['type'], addressLine1: r.address_line1,
    addressLine2: r.address_line2, city: r.city, region: r.region, postalCode: r.postal_code, country: r.country,
    phone: r.phone, openingHours: r.opening_hours, latitude, longitude,
    services: r.services ? r.services.split(';').map((s) => s.trim()).filter(Boolean) : [],
  };
}

/** Premises from CSV with the header of PREMISE_COLUMNS. */
export function readPremisesCsv(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<PremiseRow>> {
  return readConverted(path, PREMISE_COLUMNS, { ...options, delimiter: ',', quoted: true }, toPremise);
}
