import type { catalogueV1 } from '@libs/contracts';
import { compact, narrative, type FhirResource } from './bundle';
import { numericRange } from './quantity';
import { SYSTEMS } from './systems';

const quantity = (value: number | undefined, unit: string) =>
  value === undefined ? undefined : compact({ value, unit: unit === 'N/A' ? undefined : unit });

/** A laboratory test → ObservationDefinition: code (LOINC when known), categories, unit, reference interval. */
export function observationDefinition(test: catalogueV1.LabTest): FhirResource {
  const range = numericRange(test.normalRange);
  const hasUnit = test.units !== '' && test.units !== 'N/A';
  return {
    resourceType: 'ObservationDefinition',
    id: test.id,
    ...compact({
      text: test.description ? narrative(test.description) : undefined,
      category: [{ text: test.categoryName }, { text: test.subCategoryName }].filter((c) => c.text),
      code: compact({
        coding: test.loinc ? [{ system: SYSTEMS.loinc, code: test.loinc, display: test.name }] : undefined,
        text: test.name,
      }),
      permittedDataType: [range ? 'Quantity' : 'string'],
      preferredReportName: test.name,
      method: test.methodology ? { text: test.methodology } : undefined,
      quantitativeDetails: hasUnit ? { unit: { text: test.units } } : undefined,
      qualifiedInterval: range
        ? [{ category: 'reference', range: compact({ low: quantity(range.low, test.units), high: quantity(range.high, test.units) }) }]
        : undefined,
    }),
  };
}
