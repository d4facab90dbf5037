import { operation } from '../builders';

export const docsPaths = {
  '/openapi.json': {
    get: operation({
      operationId: 'openApiDocument',
      summary: 'This OpenAPI 3.1 document',
      tags: ['Operations'],
      permission: null,
      responses: { '200': { description: 'The document.', content: { 'application/json': { schema: { type: 'object' } } } } },
    }),
  },
  '/docs': {
    get: operation({
      operationId: 'apiDocs',
      summary: 'Human-readable API documentation, rendered from this document',
      tags: ['Operations'],
      permission: null,
      responses: { '200': { description: 'An HTML page.', content: { 'text/html': {} } } },
    }),
  },
};
