import { z } from 'zod';
import { BULK_DATASETS } from '@libs/contracts';
import { operation } from '../platform/routing/operation';
import { queryChoice } from '../platform/routing/query-fields';

/** The bulk download of a whole reference dataset (docs/REFERENCE.md, "Bulk download"; docs/decisions/0026). */

const ndjson = z.string().meta({ description: 'Newline-delimited JSON (one record a line), gzip-encoded.', format: 'binary' });

export const downloadDataset = operation({
  method: 'get',
  path: '/api/v1/bulk/{dataset}',
  operationId: 'downloadDataset',
  summary: 'A whole reference dataset as gzipped NDJSON, or FHIR NDJSON, streamed',
  description:
    'Every record of the dataset in one answer, one JSON object a line (the detailed record its search answers; a dosage or food interaction with its drug), streamed as it is read, ' +
    '`Content-Encoding: gzip` (identity only for a client whose `Accept-Encoding` refuses gzip). There is no `Content-Length`: the body is ' +
    'compressed as it is written. With `_format=fhir`, one FHIR R4 resource a line (`application/fhir+ndjson`, as FHIR Bulk Data writes it): ' +
    'drugs and dosages as MedicationKnowledge, labs as ObservationDefinition, premises as Location, food interactions as ' +
    'MedicinalProductInteraction; diseases, categories and conditions have no resource of ' +
    'their own (they are the concepts of a ValueSet) and refuse it. The ETag is the dataset\'s version, renewed by every write to it: ' +
    '`If-None-Match` answers 304 while the data is unchanged. Should the data change or a read fail midway, the connection is cut rather than ' +
    'the body ended, so a partial or mixed file is never taken for a whole one.',
  tag: 'Reference',
  access: { key: 'reference:read' },
  request: {
    path: z.object({ dataset: z.enum(BULK_DATASETS, { message: `must be one of ${BULK_DATASETS.join(', ')}` }).meta({ description: 'The dataset.' }) }),
    query: z.object({
      _format: queryChoice(['json', 'fhir'])
        .optional()
        .meta({ description: '`json` (the API\'s records; the default) or `fhir` (FHIR R4 resources, where the dataset has them).' }),
    }),
  },
  responses: {
    '200': {
      description: 'The dataset, one record a line.',
      headers: {
        ETag: { description: 'The dataset\'s version (weak): send it as `If-None-Match` to download only after a change.', schema: z.string() },
        'Content-Encoding': { description: '`gzip`, unless the request\'s `Accept-Encoding` refuses it.', schema: z.string() },
        'Content-Disposition': { description: '`attachment`, with a file name.', schema: z.string() },
      },
      content: { 'application/x-ndjson': ndjson, 'application/fhir+ndjson': ndjson },
    },
    '304': { description: 'Not modified: the `If-None-Match` ETag still holds.' },
  },
});
