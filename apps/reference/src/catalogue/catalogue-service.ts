import type { Sequelize } from 'sequelize';
import type { CursorCodec } from '@libs/cursor';
import { catalogueV1 } from '@libs/contracts';
import { unaryHandler } from '@libs/grpc';
import type { Logger } from '@libs/logging';
import { categoryHandlers } from './categories';
import { conditionHandlers } from './conditions';
import { dosageHandlers } from './dosages';
import { drugHandlers } from './drugs';
import { labTestHandlers } from './lab-tests';
import { premiseHandlers } from './premises';

/** reference.v1.CatalogueService: every reference resource besides diseases. */
export function catalogueService(sequelize: Sequelize, cursors: CursorCodec, logger: Logger) {
  const labs = labTestHandlers(sequelize, cursors);
  const dosages = dosageHandlers(sequelize, cursors);
  const drugs = drugHandlers(sequelize, cursors);
  const categories = categoryHandlers(sequelize, cursors);
  const conditions = conditionHandlers(sequelize, cursors);
  const premises = premiseHandlers(sequelize, cursors);
  return {
    name: 'reference.v1.CatalogueService',
    definition: catalogueV1.CatalogueServiceService,
    implementation: {
      searchLabTests: unaryHandler(logger, 'SearchLabTests', labs.searchLabTests),
      searchDosages: unaryHandler(logger, 'SearchDosages', dosages.searchDosages),
      getDosage: unaryHandler(logger, 'GetDosage', dosages.getDosage),
      listDrugs: unaryHandler(logger, 'ListDrugs', drugs.listDrugs),
      getDrug: unaryHandler(logger, 'GetDrug', drugs.getDrug),
      listFoodInteractions: unaryHandler(logger, 'ListFoodInteractions', drugs.listFoodInteractions),
      listDrugCategories: unaryHandler(logger, 'ListDrugCategories', categories.listDrugCategories),
      listConditions: unaryHandler(logger, 'ListConditions', conditions.listConditions),
      listPremises: unaryHandler(logger, 'ListPremises', premises.listPremises),
      getPremise: unaryHandler(logger, 'GetPremise', premises.getPremise),
    } satisfies catalogueV1.CatalogueServiceServer,
  };
}
