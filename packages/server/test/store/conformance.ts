/**
 * The Store conformance suite: every rule of src/store/store.ts as a test. Each store
 * implementation calls it with a factory; every test gets a fresh, empty store.
 */
import type { Pet } from '@petstore/types'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { andThen } from '../../src/maybe-promise.js'
import { componentSchema } from '../../src/spec/operations.js'
import type { Identified } from '../../src/store/resource.js'
import { listedResources, resources } from '../../src/store/resources.js'
import type { Store, StoredResponse } from '../../src/store/store.js'
import { validValue } from '../fuzz/schema-arbitraries.js'
import { draftSchema, fieldOf } from './drafts.js'

export type StoreFactory = () => Promise<Store>

const hour = 60 * 60 * 1000

export function storeConformance(name: string, factory: StoreFactory): void {
  describe(`store conformance: ${name}`, () => {
    const opened: Store[] = []
    const fresh = async () => {
      const store = await factory()
      opened.push(store)
      return store
    }
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()))
    })

    describe.each(Object.entries(listedResources))(
      'the resource listed by %s',
      (_list, definition) => {
        /** Drafts as the store takes them: generated from the resource's schema, but its id. */
        const schema = draftSchema(definition.schema)
        const drafts = (count: number) => fc.sample(validValue(schema), count)
        /** The resource's store: the Store holds it under the name `resources` gives it. */
        const name = Object.entries(resources).find(([, entry]) => entry === definition)?.[0]
        /** The owner of an owned resource's drafts (its store's reads are of one owner). */
        const owner = definition.owned ? 'key_a' : undefined
        const storeOf = (store: Store) => {
          const of = store[name as keyof typeof resources] as unknown as {
            create(draft: unknown, options: object): Promise<Identified>
            get(id: number, owner?: string): Promise<unknown>
            list(
              query: Record<string, unknown>,
            ): Promise<{ json: string; lastId?: number; hasMore: boolean }>
            update(
              id: number,
              change: (current: Identified) => object,
              owner?: string,
            ): Promise<Identified | undefined>
            remove(id: number, check?: () => void, owner?: string): Promise<boolean>
          }
          return {
            create: (draft: unknown) => of.create(draft, { owner }),
            get: (id: number) => of.get(id, owner),
            list: (query: Record<string, unknown>) => of.list({ ...query, owner }),
            update: (id: number, change: (current: Identified) => object) =>
              of.update(id, change, owner),
            remove: (id: number, check?: () => void) => of.remove(id, check, owner),
            of,
          }
        }

        it('stores every draft whole, gives increasing ids, and pages them in id order', async () => {
          const resources = storeOf(await fresh())
          const created: Identified[] = []
          for (const draft of drafts(25)) {
            const item = await resources.create(draft)
            expect(item).toEqual({ id: item.id, ...(draft as object) })
            if (created.length > 0)
              expect(item.id).toBeGreaterThan((created.at(-1) as Identified).id)
            created.push(item)
            expect(await resources.get(item.id)).toEqual(item)
          }
          const walked: string[] = []
          let afterId: number | undefined
          for (;;) {
            const page = await resources.list({ limit: 7, afterId })
            walked.push(page.json.slice(1, -1))
            if (!page.hasMore) break
            afterId = page.lastId
          }
          expect(`[${walked.filter((part) => part !== '').join(',')}]`).toBe(
            JSON.stringify(created),
          )
        })

        it.each(Object.entries(definition.filters))(
          'filters by %s as its rule says',
          async (filter, rule) => {
            const resources = storeOf(await fresh())
            const created: Record<string, unknown>[] = []
            for (const draft of drafts(25)) {
              created.push((await resources.create(draft)) as unknown as Record<string, unknown>)
            }
            // The value of the first resource that has the field (an optional one, or one nested
            // in an optional object, is absent from some). A prefix filter is asked for the first
            // character alone: it must match others too.
            const whole = created
              .map((item) => fieldOf(item, rule.field))
              .find((field) => field !== undefined)
            expect(whole, `no draft has a ${rule.field} to filter by`).toBeDefined()
            const value = rule.match === 'equals' ? whole : [...String(whole)][0]
            const matches = created.filter((item) =>
              rule.match === 'equals'
                ? fieldOf(item, rule.field) === value
                : String(fieldOf(item, rule.field)).startsWith(String(value)),
            )
            expect(matches.length, `no ${rule.field} matches ${String(value)}`).toBeGreaterThan(0)
            const page = await resources.list({ limit: 100, [filter]: value })
            expect(page.json).toBe(JSON.stringify(matches))
          },
        )

        it('updates a resource whole in one transaction, and leaves it when the change throws', async () => {
          const resources = storeOf(await fresh())
          const [first, second] = drafts(2)
          const item = await resources.create(first)
          const { id: _, ...replacement } = (await resources.create(second)) as Identified
          const changed = await resources.update(item.id, () => replacement)
          expect(changed).toEqual({ id: item.id, ...replacement })
          expect(await resources.get(item.id)).toEqual(changed)
          await expect(
            resources.update(item.id, () => {
              throw new Error('refused')
            }),
          ).rejects.toThrow('refused')
          expect(await resources.get(item.id)).toEqual(changed)
          expect(await resources.update(999_999, () => replacement)).toBeUndefined()
        })

        it('removes a resource for good: gone from reads and pages, its id never given again', async () => {
          const resources = storeOf(await fresh())
          const [a, b, c] = drafts(3)
          const kept = await resources.create(a)
          const removed = await resources.create(b)
          await expect(
            resources.remove(removed.id, () => {
              throw new Error('refused')
            }),
          ).rejects.toThrow('refused')
          expect(await resources.get(removed.id)).toBeDefined()
          expect(await resources.remove(removed.id)).toBe(true)
          expect(await resources.remove(removed.id)).toBe(false)
          expect(await resources.get(removed.id)).toBeUndefined()
          const page = await resources.list({ limit: 100 })
          expect((JSON.parse(page.json) as Identified[]).map((item) => item.id)).toEqual([kept.id])
          expect((await resources.create(c)).id).toBeGreaterThan(removed.id)
        })

        // Registered for owned resources only: a resource without an owner has nothing to test.
        if (definition.owned === true) {
          it("keeps an owned resource to its owner: another's reads, pages and writes find nothing", async () => {
            const store = await fresh()
            const mine = storeOf(store)
            const [draft] = drafts(1)
            const item = await mine.create(draft)
            expect(await mine.of.get(item.id, 'key_b')).toBeUndefined()
            expect((await mine.of.list({ limit: 10, owner: 'key_b' })).json).toBe('[]')
            expect(await mine.of.update(item.id, () => ({}), 'key_b')).toBeUndefined()
            expect(await mine.of.remove(item.id, undefined, 'key_b')).toBe(false)
            expect(await mine.get(item.id)).toEqual(item)
          })
        }
      },
    )

    describe('transactions', () => {
      const pet = { name: 'Rex', categoryId: 1, status: 'available' } as const
      const at = '2026-11-29T10:15:00.000Z'
      const order = (petId: number) =>
        ({ petId, status: 'placed', placedAt: at, updatedAt: at }) as const

      it('creates with a first step on another resource, both or neither', async () => {
        const store = await fresh()
        const rex = await store.pets.create(pet)
        const placed = await store.orders.create(order(rex.id), {
          owner: 'key_a',
          within: (transaction) =>
            andThen(transaction.read(resources.pets, rex.id), (found) =>
              transaction.replace(resources.pets, {
                ...(found as Pet),
                status: 'pending' as const,
              }),
            ),
        })
        expect(await store.pets.get(rex.id)).toMatchObject({ status: 'pending' })
        expect(await store.orders.get(placed.id, 'key_a')).toEqual(placed)
        await expect(
          store.orders.create(order(rex.id), {
            owner: 'key_a',
            within: (transaction) =>
              andThen(transaction.read(resources.pets, rex.id), (found) =>
                andThen(
                  transaction.replace(resources.pets, {
                    ...(found as Pet),
                    status: 'sold' as const,
                  }),
                  () => {
                    throw new Error('refused after a write')
                  },
                ),
              ),
          }),
        ).rejects.toThrow('refused after a write')
        expect(await store.pets.get(rex.id)).toMatchObject({ status: 'pending' })
        expect(JSON.parse((await store.orders.list({ limit: 10, owner: 'key_a' })).json)).toEqual([
          placed,
        ])
      })

      it('finds whether any resource has one of the values asked, at each path', async () => {
        const store = await fresh()
        await store.orders.create(order(7), { owner: 'key_a' })
        const exists = async (where: Record<string, readonly (string | number)[]>) => {
          const { id } = await store.pets.create(pet)
          return store.pets.update(id, (current, transaction) =>
            andThen(transaction.exists(resources.orders, where), (found) => ({
              ...current,
              name: String(found),
            })),
          )
        }
        expect(await exists({ petId: [7], status: ['placed', 'approved'] })).toMatchObject({
          name: 'true',
        })
        expect(await exists({ petId: [7], status: ['approved'] })).toMatchObject({ name: 'false' })
        expect(await exists({ petId: [8] })).toMatchObject({ name: 'false' })
        expect(await exists({ petId: [] })).toMatchObject({ name: 'false' })
      })

      it('lets exactly one of many concurrent conditional writes win', async () => {
        const store = await fresh()
        const rex = await store.pets.create(pet)
        const attempts = await Promise.allSettled(
          Array.from({ length: 20 }, () =>
            store.orders.create(order(rex.id), {
              owner: 'key_a',
              within: (transaction) =>
                andThen(transaction.read(resources.pets, rex.id), (found) => {
                  if ((found as Pet).status !== 'available') throw new Error('taken')
                  return transaction.replace(resources.pets, {
                    ...(found as Pet),
                    status: 'pending' as const,
                  })
                }),
            }),
          ),
        )
        expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1)
        expect(
          attempts.filter(
            (attempt) => attempt.status === 'rejected' && String(attempt.reason).includes('taken'),
          ),
        ).toHaveLength(19)
      })
    })

    describe('pets', () => {
      it('creates pets with increasing ids and reads them back exactly', async () => {
        const store = await fresh()
        const first = await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
        const second = await store.pets.create({
          name: 'Ünïcødé 🐕',
          categoryId: 9007199254740991,
          status: 'sold',
        })
        expect(first).toEqual({ id: first.id, name: 'Rex', categoryId: 1, status: 'available' })
        expect(second.id).toBeGreaterThan(first.id)
        expect(await store.pets.get(second.id)).toEqual(second)
        expect(Object.keys((await store.pets.get(first.id)) as Pet).sort()).toEqual([
          'categoryId',
          'id',
          'name',
          'status',
        ])
      })

      it('finds nothing for unknown, non-positive or unsafe ids', async () => {
        const store = await fresh()
        await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
        for (const id of [999, 0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) {
          expect(await store.pets.get(id)).toBeUndefined()
        }
      })

      it('lists by id ascending with a keyset, a status filter and hasMore', async () => {
        const store = await fresh()
        const statuses = ['available', 'pending', 'sold', 'available', 'available'] as const
        const pets: Pet[] = []
        for (const [index, status] of statuses.entries()) {
          pets.push(await store.pets.create({ name: `p${index}`, categoryId: 1, status }))
        }
        const page = (pets: Pet[], hasMore: boolean) => ({
          json: JSON.stringify(pets),
          lastId: pets.at(-1)?.id,
          hasMore,
        })
        expect(await store.pets.list({ limit: 2 })).toEqual(page(pets.slice(0, 2), true))
        const rest = await store.pets.list({ limit: 10, afterId: pets[1]?.id })
        expect(rest).toEqual(page(pets.slice(2), false))
        const available = await store.pets.list({ limit: 2, status: 'available' })
        expect(available).toEqual(page([pets[0] as Pet, pets[3] as Pet], true))
        const exact = await store.pets.list({ limit: 3, status: 'available' })
        expect(exact).toEqual(page([pets[0], pets[3], pets[4]] as Pet[], false))
        expect(await store.pets.list({ limit: 5, afterId: pets[4]?.id })).toEqual({
          json: '[]',
          lastId: undefined,
          hasMore: false,
        })
      })

      it('lists pets as compact JSON, escaped exactly as JSON.stringify escapes', async () => {
        const store = await fresh()
        const names = [
          'say "hi"',
          'back\\slash \\u0041',
          'tab\tnew\nline\r\b\f\u0001\u001f\u007f',
          'line\u2028para\u2029',
          'Ünïcødé 🐕🐈‍⬛ 日本',
          '</script><!--',
        ]
        const pets: Pet[] = []
        for (const name of names) {
          pets.push(await store.pets.create({ name, categoryId: 2 ** 40, status: 'pending' }))
        }
        const page = await store.pets.list({ limit: 100, status: 'pending' })
        // Key order and escaping included: the service sends this text as the response body.
        expect(page.json).toBe(JSON.stringify(pets))
        expect(JSON.parse(page.json)).toEqual(pets)
        expect(page.lastId).toBe(pets.at(-1)?.id)
      })

      it('never reuses ids, so pets created later sort after every page already read', async () => {
        const store = await fresh()
        const before = await store.pets.create({ name: 'a', categoryId: 1, status: 'available' })
        const page = await store.pets.list({ limit: 100 })
        const after = await store.pets.create({ name: 'b', categoryId: 1, status: 'available' })
        expect(after.id).toBeGreaterThan(Math.max(page.lastId ?? 0, before.id))
      })
    })

    describe('keys', () => {
      const newKey = (hash: string) => ({
        hash,
        name: 'ci',
        plan: 'pro' as const,
        perMinute: null,
        perDay: null,
      })

      it('stores keys by hash and finds active ones', async () => {
        const store = await fresh()
        const record = await store.keys.create(newKey('a'.repeat(64)))
        expect(record).toMatchObject({
          name: 'ci',
          plan: 'pro',
          perMinute: null,
          perDay: null,
          revokedAt: null,
        })
        expect(record.id).toMatch(/^key_[0-9a-f]+$/)
        expect(Number.isNaN(Date.parse(record.createdAt))).toBe(false)
        expect(await store.keys.findActiveByHash('a'.repeat(64))).toEqual(record)
        expect(await store.keys.findActiveByHash('b'.repeat(64))).toBeUndefined()
        expect(await store.keys.countActive()).toBe(1)
      })

      it('revokes once: revoked keys are not found, listed with revokedAt, revoking again keeps it', async () => {
        const store = await fresh()
        const record = await store.keys.create(newKey('c'.repeat(64)))
        const other = await store.keys.create({
          ...newKey('d'.repeat(64)),
          name: null,
          plan: 'enterprise',
          perMinute: 5,
          perDay: 2,
        })
        const revoked = await store.keys.revoke(record.id)
        expect(revoked?.revokedAt).toEqual(expect.any(String))
        expect(await store.keys.findActiveByHash('c'.repeat(64))).toBeUndefined()
        expect((await store.keys.revoke(record.id))?.revokedAt).toBe(revoked?.revokedAt)
        expect(await store.keys.revoke('key_unknown')).toBeUndefined()
        expect((await store.keys.list()).map((key) => key.id)).toEqual([record.id, other.id])
        expect(await store.keys.countActive()).toBe(1)
      })

      it('has a found key at hand, never an unknown one, and forgets it once revoked', async () => {
        const store = await fresh()
        const record = await store.keys.create(newKey('9'.repeat(64)))
        expect(store.keys.cachedActive?.('8'.repeat(64))).toBeUndefined()
        expect(await store.keys.findActiveByHash('8'.repeat(64))).toBeUndefined()
        expect(store.keys.cachedActive?.('8'.repeat(64))).toBeUndefined()
        expect(await store.keys.findActiveByHash('9'.repeat(64))).toEqual(record)
        // At hand or not (a store that cannot trust its cache yet says nothing), never wrong.
        expect([undefined, record]).toContainEqual(store.keys.cachedActive?.('9'.repeat(64)))
        await store.keys.revoke(record.id)
        expect(store.keys.cachedActive?.('9'.repeat(64))).toBeUndefined()
        expect(await store.keys.findActiveByHash('9'.repeat(64))).toBeUndefined()
      })

      it('keeps numbers on per-key plan keys only', async () => {
        const store = await fresh()
        await expect(
          store.keys.create({ ...newKey('e'.repeat(64)), perMinute: 300, perDay: 10000 }),
        ).rejects.toThrow()
        await expect(
          store.keys.create({ ...newKey('f'.repeat(64)), plan: 'enterprise' }),
        ).rejects.toThrow()
        const enterprise = await store.keys.create({
          ...newKey('f'.repeat(64)),
          plan: 'enterprise',
          perMinute: 5,
          perDay: 2,
        })
        expect(enterprise).toMatchObject({ perMinute: 5, perDay: 2 })
        expect(await store.keys.countActive()).toBe(1)
      })

      it('refuses a second key with the same hash', async () => {
        const store = await fresh()
        await store.keys.create(newKey('e'.repeat(64)))
        await expect(store.keys.create(newKey('e'.repeat(64)))).rejects.toThrow()
      })
    })

    describe('idempotency', () => {
      const respond = (pet: Pet): StoredResponse => ({
        status: 201,
        body: JSON.stringify(pet),
        headers: { location: `/v1/pets/${pet.id}` },
      })

      it('claims once, reports in-flight, then replays the completed response', async () => {
        const store = await fresh()
        const now = 1_000_000
        expect(await store.idempotency.claim('key_a', 'k1', now, 24 * hour, 60_000)).toEqual({
          state: 'claimed',
        })
        expect(await store.idempotency.claim('key_a', 'k1', now + 1, 24 * hour, 60_000)).toEqual({
          state: 'in_progress',
        })
        expect(await store.idempotency.claim('key_b', 'k1', now, 24 * hour, 60_000)).toEqual({
          state: 'claimed',
        })
        const pet = await store.pets.create(
          { name: 'Rex', categoryId: 1, status: 'available' },
          { idempotency: { scope: 'key_a', key: 'k1', fingerprint: 'f1', respond } },
        )
        expect(await store.idempotency.claim('key_a', 'k1', now + 2, 24 * hour, 60_000)).toEqual({
          state: 'completed',
          fingerprint: 'f1',
          response: respond(pet),
        })
      })

      it('forgets records after their ttl and purges them', async () => {
        const store = await fresh()
        await store.idempotency.claim('key_a', 'k', 0, hour, 60_000)
        await store.pets.create(
          { name: 'Rex', categoryId: 1, status: 'available' },
          { idempotency: { scope: 'key_a', key: 'k', fingerprint: 'f', respond } },
        )
        expect((await store.idempotency.claim('key_a', 'k', hour - 1, hour, 60_000)).state).toBe(
          'completed',
        )
        expect(await store.idempotency.purgeExpired(hour)).toBe(1)
        expect((await store.idempotency.claim('key_a', 'k', hour, hour, 60_000)).state).toBe(
          'claimed',
        )
      })

      it('treats a stale in-flight claim as abandoned, and a released one as absent', async () => {
        const store = await fresh()
        await store.idempotency.claim('key_a', 'k', 0, hour, 1000)
        expect((await store.idempotency.claim('key_a', 'k', 999, hour, 1000)).state).toBe(
          'in_progress',
        )
        expect((await store.idempotency.claim('key_a', 'k', 1000, hour, 1000)).state).toBe(
          'claimed',
        )
        await store.idempotency.release('key_a', 'k')
        expect((await store.idempotency.claim('key_a', 'k', 1001, hour, 1000)).state).toBe(
          'claimed',
        )
      })

      it('gives exactly one of many concurrent claims', async () => {
        const store = await fresh()
        const claims = await Promise.all(
          Array.from({ length: 20 }, () =>
            store.idempotency.claim('key_a', 'same', 5, hour, 60_000),
          ),
        )
        expect(claims.filter((claim) => claim.state === 'claimed')).toHaveLength(1)
      })

      it('writes the pet and the completed record together or not at all', async () => {
        const store = await fresh()
        await store.idempotency.claim('key_a', 'k', 0, hour, 60_000)
        const failing = () => {
          throw new Error('respond failed')
        }
        await expect(
          store.pets.create(
            { name: 'Rex', categoryId: 1, status: 'available' },
            { idempotency: { scope: 'key_a', key: 'k', fingerprint: 'f', respond: failing } },
          ),
        ).rejects.toThrow('respond failed')
        expect((await store.pets.list({ limit: 10 })).json).toBe('[]')
        expect((await store.idempotency.claim('key_a', 'k', 1, hour, 60_000)).state).toBe(
          'in_progress',
        )
      })
    })

    describe('seed', () => {
      it('appends drafts after every resource, each stored as create stores it', async () => {
        const store = await fresh()
        const created = await store.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
        let iterated = 0
        function* drafts(): Generator<Omit<Pet, 'id'>> {
          for (const draft of [
            { status: 'sold', name: 'Ünïcødé 🐕', categoryId: 2 } as const,
            { name: 'Bella', categoryId: 3, status: 'pending' } as const,
          ]) {
            iterated++
            yield draft
          }
        }
        expect(await store.seed('pets', drafts())).toBe(2)
        expect(iterated).toBe(2)
        const page = await store.pets.list({ limit: 10 })
        const ids = (JSON.parse(page.json) as Pet[]).map((pet) => pet.id)
        expect(ids).toHaveLength(3)
        expect(ids[0]).toBe(created.id)
        expect(ids[1]).toBeGreaterThan(created.id)
        expect(ids[2]).toBeGreaterThan(ids[1] as number)
        const seeded = [
          { id: ids[1], name: 'Ünïcødé 🐕', categoryId: 2, status: 'sold' },
          { id: ids[2], name: 'Bella', categoryId: 3, status: 'pending' },
        ]
        // The page's bytes: documents in the schema's order, whatever the draft's.
        expect(page.json).toBe(JSON.stringify([created, ...seeded]))
        expect(await store.pets.get(ids[1] as number)).toEqual(seeded[0])
        const later = await store.pets.create({ name: 'Milo', categoryId: 4, status: 'sold' })
        expect(later.id).toBeGreaterThan(ids[2] as number)
      })

      it('stores nothing when the drafts fail part of the way', async () => {
        const store = await fresh()
        function* failing(): Generator<Omit<Pet, 'id'>> {
          yield { name: 'Rex', categoryId: 1, status: 'available' }
          throw new Error('no more drafts')
        }
        await expect(store.seed('pets', failing())).rejects.toThrow('no more drafts')
        expect((await store.pets.list({ limit: 10 })).json).toBe('[]')
      })
    })

    describe('settings and health', () => {
      it('creates a setting once and keeps it', async () => {
        const store = await fresh()
        expect(await store.setting('s', () => 'first')).toBe('first')
        expect(await store.setting('s', () => 'second')).toBe('first')
      })

      it('answers ping while open and closes idempotently', async () => {
        const store = await factory()
        await expect(store.ping()).resolves.toBeUndefined()
        await store.close()
        await store.close()
        await expect(store.ping()).rejects.toThrow()
      })
    })
  })
}
