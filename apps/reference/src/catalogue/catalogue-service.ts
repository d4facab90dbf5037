import type { Sequelize } from 'sequelize';
import type { CursorCodec } from '@libs/cursor';
import { catalogueV1 } from '@libs/contracts';
import { grpcService, type HandlerOptions, type ServiceRegistration } from '@libs/grpc';
import { categoryHandlers } from './categories';
import { conditionHandlers } from './conditions';
import { dosageHandlers } from './dosages';
import { drugHandlers } from './drugs';
import { labTestHandlers } from './lab-tests';
import { premiseHandlers } from './premises';

/** reference.v1.CatalogueService: every reference resource besides diseases. */
export function catalogueService(sequelize: Sequelize, cursors: CursorCodec, handling: HandlerOptions): ServiceRegistration {
  return grpcService(catalogueV1.CatalogueServiceService, handling, {
    ...labTestHandlers(sequelize, cursors),
    ...dosageHandlers(sequelize, cursors),
    ...drugHandlers(sequelize, cursors),
    ...categoryHandlers(sequelize, cursors),
    ...conditionHandlers(sequelize, cursors),
    ...premiseHandlers(sequelize, cursors),
  });
}
