/**
 * A resource on SQLite: documents (../documents.ts) keyed by an AUTOINCREMENT id (never reused),
 * pages by keyset on id, filters read from the document by the expressions their indexes hold.
 */
import type Database from 'better-sqlite3'
import { andThen } from '../../maybe-promise.js'
import { fieldExpression, ownerColumn } from '../migrations.js'
import type {
  FilterRule,
  Identified,
  ListOperationId,
  ListQuery,
  Page,
  ResourceDefinition,
  ResourceStore,
} from '../resource.js'
import { transactionalWrites } from '../writes.js'
import { bindable, resourceJson, type SqliteTransactions } from './transaction.js'

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

export function sqliteResourceStore<K extends ListOperationId, R extends Identified>(
  db: Database.Database,
  transactions: SqliteTransactions,
  definition: ResourceDefinition<K, R>,
): ResourceStore<K, R> {
  const { table } = definition
  const owned = definition.owned === true
  const filters = Object.entries(definition.filters) as [string, FilterRule<R>][]
  const { byId } = transactions.statements(definition)
  // Prepared on first use, by the filters given and the limit.
  const pages = new Map<string, Database.Statement<[Record<string, unknown>], PageRow>>()
  const pageStatement = (limit: number, given: [string, FilterRule<R>][]) => {
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100) {
      throw new RangeError(`limit must be 1..100, not ${limit}`)
    }
    const key = `${limit} ${given.map(([name]) => name).join(' ')}`
    let statement = pages.get(key)
    if (statement === undefined) {
      const where = [
        ...(owned ? [`AND ${ownerColumn} = @owner`] : []),
        ...given.map(
          ([, rule], index) => `AND ${conditions[rule.match](rule.field, `filter${index}`)}`,
        ),
      ].join(' ')
      statement = db.prepare(pageQuery(table, limit, where))
      pages.set(key, statement)
    }
    return statement
  }
  return {
    create(draft, options = {}) {
      const { within, idempotency, owner } = options
      return transactions.run((transaction) =>
        andThen(within?.(transaction), () =>
          transactions.insert(definition, draft, owner, idempotency),
        ),
      )
    },
    // Reads answer at once (resource.ts): better-sqlite3 is synchronous, and a promise per read
    // would add a microtask to every getPet and page.
    get(id, owner) {
      if (!Number.isSafeInteger(id) || id < 1) return undefined
      const json = owned ? byId.get(id, owner) : byId.get(id)
      return json === undefined ? undefined : (JSON.parse(json) as R)
    },
    list(query: ListQuery<K>): Page {
      const values = query as Record<string, unknown>
      const given = filters.filter(([name]) => values[name] !== undefined)
      const params: Record<string, unknown> = { after: query.afterId ?? 0 }
      if (owned) params.owner = query.owner
      for (const [index, [name]] of given.entries())
        params[`filter${index}`] = bindable(values[name])
      const { json, lastId, hasMore } = pageStatement(query.limit, given).get(params) as PageRow
      return { json, lastId: lastId ?? undefined, hasMore: hasMore === 1 }
    },
    ...transactionalWrites((work) => transactions.run(work), definition),
  }
}
