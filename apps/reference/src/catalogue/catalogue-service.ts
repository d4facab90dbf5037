import type { Sequelize } from 'sequelize';
import type { CursorCodec } from '@libs/cursor';
import { catalogueV1 } from '@libs/contracts';
import { unaryHandler, type HandlerOptions } from '@libs/grpc';
import { categoryHandlers } from './categories';
import { conditionHandlers } from './conditions';
import { dosageHandlers } from './dosages';
import { drugHandlers } from './drugs';
import { labTestHandlers } from './lab-tests';
import { premiseHandlers } from './premises';

/** reference.v1.CatalogueService: every reference resource besides diseases. */
export function catalogueService(sequelize: Sequelize, cursors: CursorCodec, handling: HandlerOptions) {
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
      searchLabTests: unaryHandler(handling, 'SearchLabTests', labs.searchLabTests),
      searchDosages: unaryHandler(handling, 'SearchDosages', dosages.searchDosages),
      getDosage: unaryHandler(handling, 'GetDosage', dosages.getDosage),
      listDrugs: unaryHandler(handling, 'ListDrugs', drugs.listDrugs),
      getDrug: unaryHandler(handling, 'GetDrug', drugs.getDrug),
      listFoodInteractions: unaryHandler(handling, 'ListFoodInteractions', drugs.listFoodInteractions),
      listDrugCategories: unaryHandler(handling, 'ListDrugCategories', categories.listDrugCategories),
      listConditions: unaryHandler(handling, 'ListConditions', conditions.listConditions),
      listPremises: unaryHandler(handling, 'ListPremises', premises.listPremises),
      getPremise: unaryHandler(handling, 'GetPremise', premises.getPremise),
    } satisfies catalogueV1.CatalogueServiceServer,
  };
}
