import { z } from 'zod';
import { defineEntity, messageOf } from './fields';
import { jsonOf, jsonShapeOf } from './json';

// A field as CONTRIBUTING's checklist adds one: its other spellings follow from its gRPC name.
const NOTED = defineEntity<{ scopeNote: string; parentIds: string; relatedTerms: string[] }>()([
  { name: 'scope_note', kind: 'text' },
  { name: 'parent_ids', kind: 'joined', column: 'parents', description: 'Separated by `|`.' },
  { name: 'related_terms', kind: 'list', source: 'Related' },
]);

describe('declared reference fields', () => {
  it('spell each name as the record, the table, the source file and the API do, unless told otherwise', () => {
    expect(NOTED.fields.map(({ property, column, source, json }) => ({ property, column, source, json }))).toEqual([
      { property: 'scopeNote', column: 'scope_note', source: 'ScopeNote', json: 'Scope_Note' },
      { property: 'parentIds', column: 'parents', source: 'ParentIDs', json: 'Parent_IDs' },
      { property: 'relatedTerms', column: 'related_terms', source: 'Related', json: 'Related_Terms' },
    ]);
  });

  it('send a joined list as one string separated by |, and a list as a list', () => {
    const message = messageOf(NOTED, { scopeNote: 'Note', parentIds: ['A', 'B'], relatedTerms: ['x', 'y'] });
    expect(message).toEqual({ scopeNote: 'Note', parentIds: 'A|B', relatedTerms: ['x', 'y'] });
    expect(jsonOf(NOTED, message)).toEqual({ Scope_Note: 'Note', Parent_IDs: 'A|B', Related_Terms: ['x', 'y'] });
  });

  it('document each field as the API sends it', () => {
    expect(z.toJSONSchema(z.object(jsonShapeOf(NOTED)))).toMatchObject({
      properties: {
        Scope_Note: { type: 'string' },
        Parent_IDs: { type: 'string', description: 'Separated by `|`.' },
        Related_Terms: { type: 'array', items: { type: 'string' } },
      },
      required: ['Scope_Note', 'Parent_IDs', 'Related_Terms'],
    });
  });
});
