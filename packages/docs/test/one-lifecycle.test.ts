/**
 * One reading of the lifecycle extensions (`deprecated`, `x-deprecated-at`, `x-sunset`,
 * `x-successor`, `x-stability-level`): for every operation of the spec, and of a copy where the
 * operations carry other dates and levels, the server's `Deprecation` and `Sunset` headers (over
 * HTTP), the docs' sunset and stability badges and changelog days, and spec:diff's dates and levels
 * are those `lifecycleOf` reads; a value it cannot read is refused by the server, left without a
 * badge by the docs and reported by spec:diff, in the same words. A consumer that reads a date or
 * a level its own way fails here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { diffSpecs, type Json, loadSpec } from '@petstore/scripts/spec-diff'
import { buildApp, configWith, issueApiKey, openSqliteStore, type Store } from '@petstore/server'
import { type Lifecycle, lifecycleOf, operationsOf } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { changelogOf } from '../src/changelog.js'
import { formatSunset, withSunsetBadges } from '../src/deprecation.js'
import { listOperations, type OpenApiDocument } from '../src/openapi.js'
import { withStabilityBadges } from '../src/stability.js'

type Spec = Record<string, unknown>

/**
 * The bundled spec with its first operation deprecated by a day without a time and a sunset
 * with an offset, its successor the second, and the first two at `beta` and `alpha`.
 */
function withOtherLifecycles(): Spec {
  const copy = structuredClone(openapiDocument) as unknown as Spec
  const [first, second] = operationsOf(copy).map(({ operation }) => operation)
  Object.assign(first ?? {}, {
    deprecated: true,
    'x-deprecated-at': '2027-03-01',
    'x-sunset': '2031-06-30T12:00:00+02:00',
    'x-successor': second?.operationId,
    'x-stability-level': 'beta',
  })
  Object.assign(second ?? {}, { 'x-stability-level': 'alpha' })
  return copy
}

const documents = { bundled: openapiDocument as unknown as Spec, other: withOtherLifecycles() }
const day = (date: Date | undefined) => date?.toISOString().slice(0, 10)

/** Every operation of a document with what the reader says of it. */
const readings = (document: Spec) =>
  operationsOf(document).map(({ method, path, operation }) => ({
    method,
    path,
    id: String((operation as { operationId?: unknown }).operationId),
    lifecycle: lifecycleOf(operation),
  }))

describe.each(Object.entries(documents))('the %s spec', (_, document) => {
  const operations = readings(document)

  it('is read without problems, and deprecates something', () => {
    expect(operations.flatMap(({ lifecycle }) => lifecycle.problems)).toEqual([])
    expect(operations.some(({ lifecycle }) => lifecycle.deprecated)).toBe(true)
  })

  describe('the server', () => {
    let dir: string
    let store: Store
    let app: Awaited<ReturnType<typeof buildApp>>
    let api: string
    let auth: Record<string, string>

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'petstore-one-lifecycle-'))
      store = openSqliteStore(join(dir, 'petstore.db'))
      app = await buildApp(configWith({ logLevel: 'silent', cursorSecret: 'x'.repeat(32) }), {
        store,
        document,
      })
      api = `${await app.listen({ host: '127.0.0.1', port: 0 })}/v1`
      auth = { authorization: `Bearer ${(await issueApiKey(store.keys, { plan: 'pro' })).rawKey}` }
    })
    afterAll(async () => {
      await app?.close()
      await store?.close()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    it('sends the dates the reader reads, on every operation that is deprecated', async () => {
      for (const { method, path, id, lifecycle } of operations) {
        const url = `${api}${path.replaceAll(/\{[^}]*\}/g, '1')}`
        const reply = await fetch(url, { method: method.toUpperCase(), headers: auth })
        const sent = {
          deprecation: reply.headers.get('deprecation'),
          sunset: reply.headers.get('sunset'),
        }
        const read = lifecycle.deprecated
          ? {
              deprecation: `@${(lifecycle.deprecatedAt?.getTime() ?? Number.NaN) / 1000}`,
              sunset: lifecycle.sunset?.toUTCString(),
            }
          : { deprecation: null, sunset: null }
        expect(sent, id).toEqual(read)
      }
    })
  })

  it('badges in the docs the sunsets and levels the reader reads', () => {
    const docs = document as unknown as OpenApiDocument
    const names = (badged: OpenApiDocument) =>
      listOperations(badged).map(({ operation }) =>
        (operation['x-badges'] ?? []).map((b) => b.name),
      )
    const level = (lifecycle: Lifecycle) =>
      ({ draft: ['Draft'], alpha: ['Alpha'], beta: ['Beta'] })[String(lifecycle.stability)] ?? []
    expect(names(withSunsetBadges(docs))).toEqual(
      operations.map(({ lifecycle: { deprecated, sunset } }) =>
        deprecated && sunset ? [`Sunset ${formatSunset(sunset.toISOString())}`] : [],
      ),
    )
    expect(names(withStabilityBadges(docs))).toEqual(
      operations.map(({ lifecycle }) => level(lifecycle)),
    )
  })

  describe('spec:diff and the changelog', () => {
    let dir: string
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'petstore-one-lifecycle-diff-'))
    })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))
    const load = (name: string, spec: Spec) => {
      const file = join(dir, `${name}.json`)
      writeFileSync(file, JSON.stringify(spec))
      return loadSpec(file).doc
    }

    it('remove a deprecated operation before the sunset the reader reads', () => {
      for (const { method, path, id, lifecycle } of operations.filter(
        (o) => o.lifecycle.deprecated,
      )) {
        const without = structuredClone(document) as { paths: Record<string, Spec> }
        delete without.paths[path]?.[method]
        const [removed] = diffSpecs(load('base', document), load(id, without), {
          now: new Date('2026-06-01T00:00:00Z'),
        })
        expect(removed?.message, id).toBe(
          `deprecated ${id} was removed before its sunset (${day(lifecycle.sunset)})`,
        )
      }
    })

    it('lower each level from the one the reader reads', () => {
      const lowered = structuredClone(document)
      for (const { operation } of operationsOf(lowered)) operation['x-stability-level'] = 'draft'
      const messages = diffSpecs(load('base', document), load('lowered', lowered))
        .filter((c) => c.rule === 'stability-decreased')
        .map((c) => c.message.split(':')[0])
      expect(messages).toEqual(
        operations
          .filter(({ lifecycle }) => lifecycle.stability !== 'draft')
          .map(({ lifecycle }) => `x-stability-level ${lifecycle.stability} -> draft`),
      )
    })

    it('give the changelog the deprecation days the reader reads', () => {
      const released = {
        version: '1.0.0',
        doc: load('released', { openapi: '3.1.0', paths: {} }),
        day: '2026-01-01',
      }
      const entries = changelogOf(
        [released],
        { version: '1.1.0', doc: load('current', document) },
        new Date(),
      )
      const days = (entries[0]?.changes ?? []).flatMap((change) =>
        change.deprecation ? [[change.location, change.deprecation] as const] : [],
      )
      expect(days.length).toBeGreaterThan(0)
      for (const [location, deprecation] of days) {
        const { lifecycle } =
          operations.find((o) => `${o.method.toUpperCase()} ${o.path}` === location) ?? {}
        expect(deprecation, location).toEqual({
          deprecatedAt: day(lifecycle?.deprecatedAt),
          sunset: day(lifecycle?.sunset),
        })
      }
    })
  })
})

describe('a value the reader cannot read', () => {
  const broken = withOtherLifecycles()
  const [first] = operationsOf(broken)
  const operation = first?.operation as Json
  operation['x-sunset'] = '2031-02-30'
  const [problem] = lifecycleOf(operation).problems

  it('is named by the reader', () => {
    expect(problem?.message).toBe('x-sunset "2031-02-30" is not an RFC 3339 date or date-time')
  })

  it('stops the server from starting, in the same words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-one-lifecycle-broken-'))
    const store = openSqliteStore(join(dir, 'petstore.db'))
    try {
      await expect(
        buildApp(configWith({ logLevel: 'silent', cursorSecret: 'x'.repeat(32) }), {
          store,
          document: broken,
        }),
      ).rejects.toThrow(String(problem?.message))
    } finally {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('gets no sunset badge in the docs, where its valid sunset gets one', () => {
    const sunsetBadges = (document: Spec) => {
      const [first] = listOperations(withSunsetBadges(document as unknown as OpenApiDocument))
      expect(first?.operation.deprecated).toBe(true)
      return (first?.operation['x-badges'] ?? []).filter((b) => b.name.startsWith('Sunset'))
    }
    expect(sunsetBadges(documents.other)).toHaveLength(1)
    expect(sunsetBadges(broken)).toEqual([])
  })

  it('is reported by spec:diff, in the same words', () => {
    const changes = diffSpecs(documents.other as Json, broken as Json)
    expect(changes.find((c) => c.rule === 'sunset-invalid')?.message).toMatch(
      new RegExp(`^${String(problem?.message).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `),
    )
  })
})
