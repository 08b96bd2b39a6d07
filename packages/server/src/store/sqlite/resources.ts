/**
 * A resource on SQLite: documents (../documents.ts) keyed by an AUTOINCREMENT id (never reused),
 * pages by keyset on id, filters read from the document by the expressions their indexes hold.
 */
import type Database from 'better-sqlite3'
import { type DocumentCodec, documentCodec } from '../documents.js'
import { fieldExpression } from '../migrations.js'
import type {
  Draft,
  FilterRule,
  IdempotencyCompletion,
  Identified,
  ListOperationId,
  ListQuery,
  Page,
  ResourceDefinition,
  ResourceStore,
} from '../resource.js'
import type { GroupCommit } from './group-commit.js'
import { completeIdempotencyStatement } from './idempotency.js'

/**
 * A row as its resource's JSON text: `{"id":N,` then the document's members. The document is cut
 * as a BLOB: `substr` on TEXT steps through every UTF-8 character to find where to start and
 * end; on a BLOB it counts bytes, and the one byte cut is `{`.
 */
const resourceJson = `'{"id":' || id || iif(doc = '{}', '}', ',' || substr(CAST(doc AS BLOB), 2))`

interface PageRow {
  json: string
  lastId: number | null
  hasMore: 0 | 1
}

/** A filter's condition on `field`, its value bound as `param`. */
const conditions = {
  equals: (field: string, param: string) => `${fieldExpression('sqlite', field)} = @${param}`,
  prefix: (field: string, param: string) =>
    `substr(${fieldExpression('sqlite', field)}, 1, length(@${param})) = @${param}`,
} satisfies Record<FilterRule<unknown>['match'], (field: string, param: string) => string>

/**
 * One page as Page wants it, in one statement and so one snapshot (and one read lock of the WAL
 * index rather than two): the rows reach the aggregate in the subquery's id order (an ORDER BY
 * inside group_concat would sort them again; the conformance suite checks the order), and
 * whether a full page has a successor is asked after it, which costs less than
 * reading a row past the limit.
 *
 * The limit is written into the SQL, not bound: SQLite's planner reads a bound LIMIT, which
 * marks the statement to be prepared again every time that parameter is bound. Limits are
 * 1..100, so each combination of filters prepares at most 100.
 * @see https://www.sqlite.org/c3ref/prepare.html (re-preparing when a binding changes the plan)
 */
function pageQuery(table: string, limit: number, where: string): string {
  return `SELECT json, lastId,
      count = ${limit} AND EXISTS (SELECT 1 FROM ${table} WHERE id > lastId ${where}) AS hasMore
    FROM (
      SELECT '[' || coalesce(group_concat(json, ','), '') || ']' AS json,
        max(id) AS lastId, count(*) AS count
      FROM (SELECT id, ${resourceJson} AS json FROM ${table}
        WHERE id > @after ${where} ORDER BY id LIMIT ${limit})
    )`
}

/** json_extract reads JSON's true and false as 1 and 0, and better-sqlite3 binds no boolean. */
function bindable(value: unknown): unknown {
  return typeof value === 'boolean' ? Number(value) : value
}

export function sqliteResourceStore<K extends ListOperationId, R extends Identified>(
  db: Database.Database,
  writes: GroupCommit,
  definition: ResourceDefinition<K, R>,
  codec: DocumentCodec<R> = documentCodec<R>(definition.schema),
): ResourceStore<K, R> {
  const { table } = definition
  const filters = Object.entries(definition.filters) as [string, FilterRule<R>][]
  const insert = db.prepare<[string], { id: number }>(
    `INSERT INTO ${table} (doc) VALUES (?) RETURNING id`,
  )
  const complete = completeIdempotencyStatement(db)
  const byId = db.prepare<[number], string>(`SELECT ${resourceJson} FROM ${table} WHERE id = ?`)
  byId.pluck()
  // Prepared on first use, by the filters given and the limit.
  const pages = new Map<string, Database.Statement<[Record<string, unknown>], PageRow>>()
  const pageStatement = (limit: number, given: [string, FilterRule<R>][]) => {
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100) {
      throw new RangeError(`limit must be 1..100, not ${limit}`)
    }
    const key = `${limit} ${given.map(([name]) => name).join(' ')}`
    let statement = pages.get(key)
    if (statement === undefined) {
      const where = given
        .map(([, rule], index) => `AND ${conditions[rule.match](rule.field, `filter${index}`)}`)
        .join(' ')
      statement = db.prepare(pageQuery(table, limit, where))
      pages.set(key, statement)
    }
    return statement
  }
  const create = (draft: Draft<R>, completion: IdempotencyCompletion<R> | undefined) => {
    const encoded = codec.encode(draft)
    const { id } = insert.get(encoded.text) as { id: number }
    const created = encoded.withId(id)
    if (completion !== undefined) {
      complete.run(
        JSON.stringify(completion.respond(created)),
        completion.fingerprint,
        completion.scope,
        completion.key,
      )
    }
    return created
  }
  return {
    create(draft, idempotency) {
      return writes.run(() => create(draft, idempotency))
    },
    // Reads answer at once (resource.ts): better-sqlite3 is synchronous, and a promise per read
    // would add a microtask to every getPet and page.
    get(id) {
      if (!Number.isSafeInteger(id) || id < 1) return undefined
      const json = byId.get(id)
      return json === undefined ? undefined : (JSON.parse(json) as R)
    },
    list(query: ListQuery<K>): Page {
      const values = query as Record<string, unknown>
      const given = filters.filter(([name]) => values[name] !== undefined)
      const params: Record<string, unknown> = { after: query.afterId ?? 0 }
      for (const [index, [name]] of given.entries())
        params[`filter${index}`] = bindable(values[name])
      const { json, lastId, hasMore } = pageStatement(query.limit, given).get(params) as PageRow
      return { json, lastId: lastId ?? undefined, hasMore: hasMore === 1 }
    },
  }
}
