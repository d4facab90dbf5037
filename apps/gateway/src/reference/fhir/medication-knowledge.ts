import type { catalogueV1 } from '@libs/contracts';
import { compact, narrative, type FhirResource } from './bundle';
import { simpleQuantity } from './quantity';
import { SYSTEMS } from './systems';

const characteristic = (type: string, value: string) =>
  value ? [{ type: { text: type }, valueString: value }] : [];

/** A drug → MedicationKnowledge: DrugBank and ATC codes, ATC classification, description as narrative. */
export function drugKnowledge(drug: catalogueV1.Drug, categories: catalogueV1.DrugCategory[] = []): FhirResource {
  const nameOf = new Map(categories.map((c) => [c.code, c.name]));
  const atc = drug.atcCodes.map((code) => compact({ system: SYSTEMS.atc, code, display: nameOf.get(code) }));
  return {
    resourceType: 'MedicationKnowledge',
    id: `drug-${drug.id}`,
    ...compact({
      text: drug.description ? narrative(drug.description) : undefined,
      code: {
        coding: [...(drug.drugbankId ? [{ system: SYSTEMS.drugbank, code: drug.drugbankId, display: drug.name }] : []), ...atc],
        text: drug.name,
      },
      status: 'active',
      medicineClassification: atc.length ? [{ type: { text: 'WHO ATC' }, classification: atc.map((c) => ({ coding: [c] })) }] : undefined,
    }),
  };
}

/**
 * A dosage → MedicationKnowledge (docs/REFERENCE.md): doseForm, intendedRoute and,
 * when the strength is a plain quantity such as "500 mg", amount. The strength
 * as written and the physical form are kept as characteristics.
 */
export function dosageKnowledge(drug: { id: string; name: string }, dosage: catalogueV1.Dosage): FhirResource {
  return {
    resourceType: 'MedicationKnowledge',
    id: `dosage-${dosage.id}`,
    ...compact({
      code: { text: drug.name },
      status: 'active',
      doseForm: dosage.form ? { text: dosage.form } : undefined,
      amount: simpleQuantity(dosage.strength),
      intendedRoute: dosage.adminMethod ? [{ text: dosage.adminMethod }] : undefined,
      drugCharacteristic: [
        ...characteristic('strength', dosage.strength),
        ...characteristic('physical form', dosage.physicalForm),
      ],
      relatedMedicationKnowledge: drug.id
        ? [{ type: { text: 'drug' }, reference: [{ reference: `MedicationKnowledge/drug-${drug.id}`, display: drug.name }] }]
        : undefined,
    }),
  };
}
