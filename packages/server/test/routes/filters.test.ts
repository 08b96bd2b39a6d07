/**
 * Every filter a list operation declares restricts its listing, page after page: for each list
 * operation of the spec (its resource in src/store/resources.ts) and each of its query
 * parameters but `limit` and `cursor`, a walk with the filter returns exactly the resources its
 * rule keeps, in id order, and every `next` link carries the filter on. Resources are generated
 * from the resource's schema (so every filtered field takes many values, an order's status too)
 * and stored through the store the server reads, as the caller's for an owned resource.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashApiKey } from '../../src/auth/api-key.js'
import { specOperations } from '../../src/spec/operations.js'
import type { FilterRule, Identified } from '../../src/store/resource.js'
import { listedResources, resources } from '../../src/store/resources.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'
import type { Store } from '../../src/store/store.js'
import { validValue } from '../fuzz/schema-arbitraries.js'
import { call, startWithKey, type TestServer } from '../helpers.js'
import { draftSchema, fieldOf } from '../store/drafts.js'

/** A filter's rule as a listing reads it. */
type Rule = { field: string; match: FilterRule<unknown>['match'] }

const paging = new Set(['limit', 'cursor'])
const created = 40
const pageSize = 3

const dir = mkdtempSync(join(tmpdir(), 'petstore-filters-'))
let server: TestServer
let auth: { authorization: string }
/** The server's store, opened beside it as the operator CLI opens it. */
let store: Store
let owner: string
beforeAll(async () => {
  const dbPath = join(dir, 'petstore.db')
  let key: string
  ;({ server, auth, key } = await startWithKey('enterprise', { dbPath }))
  store = openSqliteStore(dbPath)
  owner = ((await store.keys.findActiveByHash(hashApiKey(key))) as { id: string }).id
})
afterAll(async () => {
  await store.close()
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Whether `item` passes `rule` for the parameter's text `value`. */
function keeps(rule: Rule, item: Record<string, unknown>, value: string): boolean {
  const field = fieldOf(item, rule.field)
  if (field === undefined || field === null) return false
  return rule.match === 'equals' ? String(field) === value : String(field).startsWith(value)
}

/** The values worth filtering by: some the created resources have, and one none has. */
function valuesOf(rule: Rule, items: Record<string, unknown>[]): string[] {
  const present = [
    ...new Set(items.map((item) => fieldOf(item, rule.field)).filter((v) => v != null)),
  ]
  const texts = present.slice(0, 3).map(String)
  if (rule.match === 'prefix') texts.push(...texts.map((text) => [...text].slice(0, 1).join('')))
  return texts
}

const listings = Object.entries(listedResources)
it('walks at least one listing', () => expect(listings.length).toBeGreaterThan(0))

describe.each(listings)('%s', (operationId, definition) => {
  const list = specOperations.find((operation) => operation.operationId === operationId)
  const name = Object.entries(resources).find(([, entry]) => entry === definition)?.[0]
  const filters = (list?.parameters ?? [])
    .filter((parameter) => parameter.in === 'query' && !paging.has(parameter.name))
    .map((parameter) => parameter.name)
  const rules = definition.filters as Record<string, Rule>

  it('has a rule for each filter the spec declares (src/store/resources.ts)', () => {
    expect(Object.keys(rules).sort()).toEqual([...filters].sort())
  })

  it.each(filters)('restricts by %s on every page, and the next links keep it', async (filter) => {
    const rule = rules[filter] as Rule
    const resourceStore = store[name as keyof typeof resources] as unknown as {
      create(draft: unknown, options: { owner?: string }): Promise<Identified>
    }
    const url = `${server.api}${list?.path}`
    const items: Record<string, unknown>[] = []
    for (const draft of fc.sample(validValue(draftSchema(definition.schema)), created)) {
      const item = await resourceStore.create(draft, {
        owner: definition.owned ? owner : undefined,
      })
      items.push(item as unknown as Record<string, unknown>)
    }
    const ours = new Set(items.map((item) => item.id))
    const values = valuesOf(rule, items)
    expect(values.length, `no value of ${rule.field} to filter by`).toBeGreaterThan(0)
    for (const value of values) {
      const query = `${filter}=${encodeURIComponent(value)}`
      const seen: Record<string, unknown>[] = []
      for (let next: string | undefined = `${url}?limit=${pageSize}&${query}`; next; ) {
        const page = await call(next, { headers: auth })
        expect(page.status, JSON.stringify(page.body)).toBe(200)
        seen.push(...(page.body as Record<string, unknown>[]))
        const link = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1]
        if (link !== undefined) expect(link, 'the next link keeps the filter').toContain(query)
        next = link === undefined ? undefined : new URL(link, server.url).toString()
      }
      for (const item of seen) expect(keeps(rule, item, value), JSON.stringify(item)).toBe(true)
      const expected = items.filter((item) => keeps(rule, item, value)).map((item) => item.id)
      expect(seen.map((item) => item.id).filter((id) => ours.has(id))).toEqual(expected)
    }
  })
})
