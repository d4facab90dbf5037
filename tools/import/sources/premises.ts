import { upsertPremises } from '@libs/reference-db';
import { readPremisesCsv, type PremiseRow } from '@libs/source-formats';
import type { ImportSource } from '../import-source';

export const premisesSource: ImportSource<PremiseRow> = {
  name: 'premises',
  describe: 'pharmacies, hospitals, clinics and laboratories, CSV in the layout of docs/IMPORT.md',
  read: readPremisesCsv,
  key: (row) => row.id,
  write: (sequelize, rows, transaction) =>
    upsertPremises(
      sequelize,
      rows.map((row) => ({
        sourceId: row.id,
        name: row.name,
        type: row.type,
        address: {
          line1: row.addressLine1,
          line2: row.addressLine2 || undefined,
          city: row.city,
          region: row.region || undefined,
          postalCode: row.postalCode || undefined,
          country: row.country,
        },
        phone: row.phone || undefined,
        openingHours: row.openingHours || undefined,
        latitude: row.latitude,
        longitude: row.longitude,
        services: row.services,
        sampleData: false,
      })),
      transaction,
    ),
};
