import { documentCodec } from './documents.js'
import type { Identified } from './resource.js'
import { resources } from './resources.js'

/**
 * Schema changes from 004 on, each defined once and applied by both stores, in order, after
 * their own first three (sqlite/migrations/, postgres/migrations.ts). Append only: a released
 * migration is never edited, a change is a new entry. A migration is either SQL for each
 * dialect, made by the helpers below where one exists (a resource's table, a filter's index), or
 * a change of every stored document of a table, which both stores run in JavaScript (a renamed,
 * moved or newly required property): one definition, the same result on SQLite and PostgreSQL.
 *
 * A property the spec adds as optional needs no migration: documents keep whatever the spec
 * declares (documents.ts).
 *
 * @example
 * ```ts
 * { name: '006-shelters', sql: resourceTable('shelters', { filtered: ['city'] }) }
 * { name: '007-pet-title', documents: { table: 'pets', change: ({ name, ...pet }) => ({ ...pet, title: name }) } }
 * ```
 */

export type Dialect = 'sqlite' | 'postgres'

/** SQL for each store, applied in the migration's transaction. */
export interface SqlMigration {
  name: string
  sql: Readonly<Record<Dialect, string>>
}

export type StoredDocument = Record<string, unknown>

/**
 * A change of every document of `table`, applied row by row in the migration's transaction;
 * each changed document is written in its resource's schema order (documents.ts), whatever order
 * the change returned it in.
 */
export interface DocumentMigration {
  name: string
  documents: { table: string; change: (document: StoredDocument) => StoredDocument }
}

export type Migration = SqlMigration | DocumentMigration

/** The stored text of `table`'s documents after `change`: what both stores write back. */
export function changedDocumentText(
  table: string,
  change: (document: StoredDocument) => StoredDocument,
): (text: string) => string {
  const definition = Object.values(resources).find((resource) => resource.table === table)
  const codec = definition === undefined ? undefined : documentCodec<Identified>(definition.schema)
  return (text) => {
    const changed = change(JSON.parse(text) as StoredDocument)
    return codec === undefined ? JSON.stringify(changed) : codec.encode(changed).text
  }
}

/** Table and property names go into SQL text, so they are held to identifiers. */
function identifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new Error(`"${name}" is not a plain identifier: name tables and filtered fields so`)
  }
  return name
}

/**
 * The SQL expression reading a document's `field` as the dialect's scalar: a top-level property
 * (`status`) or a nested one (`medical.vaccinated`). PostgreSQL reads text either way (`->>`,
 * `#>>`), SQLite reads the JSON value (a boolean as 1 or 0). An index and the query that should
 * use it must write the same expression, so this is their one writer.
 */
export function fieldExpression(dialect: Dialect, field: string): string {
  const segments = field.split('.').map(identifier)
  if (dialect === 'sqlite') return `json_extract(doc, '$.${segments.join('.')}')`
  return segments.length === 1 ? `(doc->>'${segments[0]}')` : `(doc #>> '{${segments.join(',')}}')`
}

/** The column of an owned resource's owner (resource.ts `owned`), beside its document. */
export const ownerColumn = 'owner'

export interface ResourceTableOptions {
  /** The fields its listing filters on with `equals`, each given an index (`filterIndex`). */
  filtered?: readonly string[]
  /** An owned resource: an owner column, and the index of each owner's listing. */
  owned?: boolean
}

/**
 * The table of a resource's documents (documents.ts): ids from a sequence that never reuses one,
 * on PostgreSQL the trigger that tells every instance's cache of a change (table-changes.ts), and
 * an index for each field its listing filters on (`filterIndex`).
 */
export function resourceTable(
  table: string,
  options: ResourceTableOptions = {},
): Record<Dialect, string> {
  const name = identifier(table)
  const owner = options.owned === true ? `, ${ownerColumn} TEXT NOT NULL` : ''
  const indexes = (options.filtered ?? []).map((field) => filterIndex(table, field))
  if (options.owned === true) {
    const byOwner = `CREATE INDEX ${name}_${ownerColumn}_id ON ${name} (${ownerColumn}, id);`
    indexes.push({ sqlite: byOwner, postgres: byOwner })
  }
  return {
    sqlite: [
      `CREATE TABLE ${name} (id INTEGER PRIMARY KEY AUTOINCREMENT, doc TEXT NOT NULL${owner});`,
      ...indexes.map((index) => index.sqlite),
    ].join('\n'),
    postgres: [
      `CREATE TABLE ${name} (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, doc json NOT NULL${owner});`,
      `CREATE TRIGGER ${name}_changed AFTER UPDATE OR DELETE OR TRUNCATE ON ${name}
        FOR EACH STATEMENT EXECUTE FUNCTION announce_change();`,
      ...indexes.map((index) => index.postgres),
    ].join('\n'),
  }
}

/** The index a listing filtered on `field` (a property path) walks in id order. */
export function filterIndex(table: string, field: string): Record<Dialect, string> {
  const index = `${identifier(table)}_${field.split('.').map(identifier).join('_')}_id`
  return {
    sqlite: `CREATE INDEX ${index} ON ${table} (${fieldExpression('sqlite', field)}, id);`,
    postgres: `CREATE INDEX ${index} ON ${table} (${fieldExpression('postgres', field)}, id);`,
  }
}

/**
 * Pets become documents (documents.ts), keeping their ids and the sequence that never reuses
 * one, and `pets_status_id` reads the status from the document.
 */
const petDocuments: SqlMigration = {
  name: '004-pet-documents',
  sql: {
    sqlite: `
      CREATE TABLE pets_next (id INTEGER PRIMARY KEY AUTOINCREMENT, doc TEXT NOT NULL);
      INSERT INTO pets_next (id, doc)
        SELECT id, json_object('name', name, 'categoryId', category_id, 'status', status)
        FROM pets ORDER BY id;
      DELETE FROM sqlite_sequence WHERE name = 'pets_next';
      UPDATE sqlite_sequence SET name = 'pets_next' WHERE name = 'pets';
      DROP TABLE pets;
      ALTER TABLE pets_next RENAME TO pets;
      ${filterIndex('pets', 'status').sqlite}`,
    postgres: `
      ALTER TABLE pets ADD COLUMN doc json;
      UPDATE pets SET doc = format('{"name":%s,"categoryId":%s,"status":%s}',
        to_json(name), category_id, to_json(status))::json;
      ALTER TABLE pets ALTER COLUMN doc SET NOT NULL;
      DROP INDEX pets_status_id;
      ALTER TABLE pets DROP COLUMN name, DROP COLUMN category_id, DROP COLUMN status;
      ${filterIndex('pets', 'status').postgres}`,
  },
}

/** Store orders (resources.ts `orders`): each of the API key that placed it. */
const orders: SqlMigration = {
  name: '005-orders',
  sql: resourceTable('orders', { filtered: ['status', 'petId'], owned: true }),
}

export const migrations: readonly Migration[] = [petDocuments, orders]
