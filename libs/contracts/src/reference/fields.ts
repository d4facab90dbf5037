/**
 * A reference entity's fields, declared once. The declaration gives each field its gRPC name and its kind; every
 * other spelling follows from the name: the record's and the gRPC message's camelCase, the table column, the
 * source file's column and the API's JSON name. A few older names that do not follow are given explicitly. The
 * parser, the writer, the store, the gRPC mapping and the gateway's schema all read the declaration.
 */

/**
 * How a value is held. `text`: one string. `list`: strings, a list everywhere (a text[] column, a repeated gRPC
 * field, a JSON array). `joined`: strings stored as a list but sent as one string, separated by `|`.
 */
export type FieldKind = 'text' | 'list' | 'joined';

export interface FieldDeclaration {
  /** The gRPC field's name, snake_case as in the .proto. */
  readonly name: string;
  readonly kind: FieldKind;
  /** The table column, where an older column does not follow the name. */
  readonly column?: string;
  /** The source file's column header, where the source does not follow the name. */
  readonly source?: string;
  /** The column records are upserted on; its source value is taken as written, never trimmed. */
  readonly key?: true;
  /** What the API's document says of it. */
  readonly description?: string;
}

/** A field's spellings besides its gRPC name. */
export interface Spellings {
  /** The record's and the gRPC message's property (camelCase, as ts-proto spells it). */
  readonly property: string;
  readonly column: string;
  readonly source: string;
  /** The API's JSON name: Title_Snake, as decision 0009 fixed the disease fields (Disease_ID). */
  readonly json: string;
}

export type Field = FieldDeclaration & Spellings;

export interface Entity<F extends readonly FieldDeclaration[] = readonly FieldDeclaration[]> {
  readonly fields: { readonly [I in keyof F]: F[I] & Spellings };
}

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type FieldOf<E extends Entity> = E['fields'][number];

/** A record as a source gives it and the writer stores it. */
export type RecordOf<E extends Entity> = {
  [F in FieldOf<E> as Camel<F['name']>]: F['kind'] extends 'text' ? string : string[];
};

/** The record's fields in the gRPC message: a joined list is one string there. */
export type MessageOf<E extends Entity> = {
  [F in FieldOf<E> as Camel<F['name']>]: F['kind'] extends 'list' ? string[] : string;
};

const capitalised = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
/** Id and Ids are initialisms in the source's and the API's names: DiseaseID, Parent_IDs. */
const titled = (word: string): string => ({ id: 'ID', ids: 'IDs' })[word] ?? capitalised(word);

function spelled(field: FieldDeclaration): Field {
  const [first = '', ...rest] = field.name.split('_');
  const property = first + rest.map(capitalised).join('');
  const words = [first, ...rest].map(titled);
  return {
    ...field,
    property,
    column: field.column ?? field.name,
    source: field.source ?? words.join(''),
    json: words.join('_'),
  };
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Declares an entity whose fields are those of the gRPC message `Message` (less the ones the service fills,
 * such as the id): the type check fails while the declaration and the .proto differ. Two calls, because
 * TypeScript infers the fields only when no type argument is given with them.
 */
export function defineEntity<Message>() {
  return <const F extends readonly FieldDeclaration[]>(
    fields: F & (Same<MessageOf<Entity<F>>, Message> extends true ? unknown : 'the declared fields are not the gRPC message'),
  ): Entity<F> => ({ fields: fields.map(spelled) as Entity<F>['fields'] });
}

/** The gRPC message's fields of a record. */
export function messageOf<E extends Entity>(entity: E, record: RecordOf<E>): MessageOf<E> {
  const values = record as Record<string, string | string[]>;
  const message: Record<string, string | string[]> = {};
  for (const field of entity.fields) {
    const value = values[field.property];
    message[field.property] = field.kind === 'joined' ? (value as string[]).join('|') : value;
  }
  return message as MessageOf<E>;
}
