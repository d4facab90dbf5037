import type { catalogueV1 } from '@libs/contracts';
import type { FhirResource } from './bundle';

type Parameter = { name: string; valueString?: string; valueBoolean?: boolean; part?: Parameter[] };

const parameters = (parameter: Parameter[]): FhirResource => ({ resourceType: 'Parameters', parameter });

/**
 * CodeSystem/$lookup's answer: the system's name and the code's display, its
 * first concept's name. A code that names more concepts (an FDA application's
 * drugs, a DOID's condition and diseases) gives the others' names as designations.
 */
export function lookupParameters(systemName: string, concepts: catalogueV1.CodeConcept[]): FhirResource {
  const [first, ...others] = concepts;
  return parameters([
    { name: 'name', valueString: systemName },
    { name: 'display', valueString: first.name },
    ...others.map((concept) => ({ name: 'designation', part: [{ name: 'value', valueString: concept.name }] })),
  ]);
}

/**
 * $validate-code's answer for the concepts a code names (none: not valid).
 * A display, when given, must be one of their names (ignoring case); the
 * answer then gives the expected one.
 */
export function validationParameters(concepts: { name: string }[], display: string | undefined, what: string): FhirResource {
  if (concepts.length === 0) return parameters([{ name: 'result', valueBoolean: false }, { name: 'message', valueString: `The code is not in ${what}.` }]);
  const expected = concepts[0].name;
  const matches = display === undefined || concepts.some((concept) => concept.name.toLowerCase() === display.trim().toLowerCase());
  return parameters([
    { name: 'result', valueBoolean: matches },
    ...(matches ? [] : [{ name: 'message', valueString: `The display "${display}" is not the code's display "${expected}" in ${what}.` }]),
    { name: 'display', valueString: expected },
  ]);
}
