import { QueryTypes, type Sequelize } from 'sequelize';
import { isTextPair, keysetPage, type CursorCodec } from '@libs/cursor';
import { REFERENCE_LIMITS, type catalogueV1 } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import type { PremiseAddress } from '@libs/reference-db';
import { notFound } from '@libs/validation';
import { nameKeyOf, selectByName, type NameKey } from './by-name';
import { catalogueId, normaliseTerms } from './request-checks';
import { anyContains } from './sql-params';

interface PremiseRow {
  id: string;
  source_id: string;
  name: string;
  type: string;
  address: PremiseAddress;
  phone: string | null;
  opening_hours: string | null;
  latitude: number | null;
  longitude: number | null;
  services: string[];
  sample_data: boolean;
}

const toPremise = (row: PremiseRow): catalogueV1.Premise => ({
  id: row.id,
  code: row.source_id,
  name: row.name,
  type: row.type,
  address: {
    line1: row.address.line1,
    line2: row.address.line2 ?? '',
    city: row.address.city,
    region: row.address.region ?? '',
    postalCode: row.address.postalCode ?? '',
    country: row.address.country,
  },
  phone: row.phone ?? '',
  openingHours: row.opening_hours ?? '',
  latitude: row.latitude ?? undefined,
  longitude: row.longitude ?? undefined,
  services: row.services,
  sampleData: row.sample_data,
});

const PREMISE_COLUMNS = `t.source_id, t.name, t.type, t.address, t.phone, t.opening_hours, t.latitude, t.longitude,
                        t.services, t.sample_data`;

/** Premise codes are short and plain (PRM-0002); anything else names no premise. */
const PREMISE_CODE = /^[A-Za-z0-9._-]{1,64}$/;

export function premiseHandlers(sequelize: Sequelize, cursors: CursorCodec) {
  return {
    async getPremise(request: catalogueV1.GetPremiseRequest): Promise<catalogueV1.GetPremiseResponse> {
      if ((request.id === '') === (request.code === '')) throw RpcError.invalidArgument('id', 'give exactly one of id and code');
      const byId = request.id !== '';
      if (!byId && !PREMISE_CODE.test(request.code)) throw notFound('premise');
      const [row] = await sequelize.query<PremiseRow>(
        `SELECT t.id::text AS id, ${PREMISE_COLUMNS} FROM premises t WHERE ${byId ? 't.id = $1::bigint' : 't.source_id = $1'}`,
        { bind: [byId ? catalogueId(request.id, 'premise') : request.code], type: QueryTypes.SELECT },
      );
      if (!row) throw notFound('premise');
      return { premise: toPremise(row) };
    },

    async listPremises(request: catalogueV1.ListPremisesRequest): Promise<catalogueV1.ListPremisesResponse> {
      const terms = normaliseTerms('n', request.terms);
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { premises: terms },
        limit: REFERENCE_LIMITS.premisePage,
        isPosition: isTextPair,
        positionOf: nameKeyOf,
        fetch: (after: NameKey | undefined, limit) =>
          selectByName<PremiseRow>(sequelize, {
            table: 'premises',
            columns: PREMISE_COLUMNS,
            where: (params) => anyContains(params, 't.name', terms),
            after,
            limit,
          }),
      });
      return { premises: page.rows.map(toPremise), nextCursor: page.nextCursor };
    },
  };
}
