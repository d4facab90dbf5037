import type { catalogueV1 } from '@libs/contracts';
import { compact, type FhirResource } from './bundle';

/** A drug–food interaction → MedicinalProductInteraction (R4): the food as interactant, the advice as management. */
export function foodInteraction(drug: { name: string }, interaction: catalogueV1.FoodInteraction): FhirResource {
  return {
    resourceType: 'MedicinalProductInteraction',
    id: `food-${interaction.id}`,
    ...compact({
      subject: [{ display: drug.name }],
      description: interaction.advice,
      interactant: interaction.food ? [{ itemCodeableConcept: { text: interaction.food } }] : undefined,
      type: { text: 'drug-food interaction' },
      effect: interaction.effect ? { text: interaction.effect } : undefined,
      incidence: interaction.severity ? { text: interaction.severity } : undefined,
      management: { text: interaction.advice },
    }),
  };
}
