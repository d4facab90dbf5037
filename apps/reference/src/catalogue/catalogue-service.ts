import type { CursorCodec } from '@libs/cursor';
import { catalogueV1 } from '@libs/contracts';
import { grpcService, type HandlerOptions, type ServiceRegistration } from '@libs/grpc';
import type { SearchDb, TermTables, Vocabulary } from '@libs/reference-db';
import { categoryHandlers } from './categories';
import { codeLookupHandlers } from './code-lookup';
import { conditionHandlers } from './conditions';
import { dosageHandlers } from './dosages';
import { drugHandlers } from './drugs';
import { foodInteractionHandlers } from './food-interactions';
import { labTestHandlers } from './lab-tests';
import { premiseHandlers } from './premises';
import { suggestHandlers } from './suggest';
import { valueSetHandlers } from './value-set-expansion';

/** reference.v1.CatalogueService: every reference resource besides diseases. Drug search runs as disease search does (`search`); type-ahead from the terms in memory. */
export function catalogueService(search: SearchDb & { terms: TermTables<Vocabulary> }, cursors: CursorCodec, handling: HandlerOptions): ServiceRegistration {
  const { sequelize } = search;
  return grpcService(catalogueV1.CatalogueServiceService, handling, {
    ...labTestHandlers(sequelize, cursors),
    ...dosageHandlers(sequelize, cursors),
    ...drugHandlers(search, cursors),
    ...foodInteractionHandlers(sequelize, cursors),
    ...categoryHandlers(sequelize, cursors),
    ...conditionHandlers(sequelize, cursors),
    ...premiseHandlers(sequelize, cursors),
    ...codeLookupHandlers(sequelize),
    ...suggestHandlers(search.terms),
    ...valueSetHandlers(sequelize),
  });
}
