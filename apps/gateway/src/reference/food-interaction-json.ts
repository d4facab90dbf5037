import type { catalogueV1 } from '@libs/contracts';
import { orNull } from './reference-params';

/** The drug a food interaction is joined to, as clients have always been given it. */
export const interactionDrugJson = (d: catalogueV1.DrugSummary) => ({ id: d.id, name: d.name, drugbankId: orNull(d.drugbankId) });

/** A food interaction's fields, in the order clients have always been given them. */
export const foodInteractionJson = (i: catalogueV1.FoodInteraction) => ({
  id: i.id,
  food: orNull(i.food),
  severity: orNull(i.severity),
  effect: orNull(i.effect),
  advice: i.advice,
});
