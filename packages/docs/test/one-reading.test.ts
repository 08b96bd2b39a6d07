/**
 * One reading of the spec: a path-level parameter that an operation overrides (same name and
 * location, another `required` and schema) means the same thing to the server (its validation,
 * over HTTP), the docs, the generated facts and spec:diff, because all of them read the spec
 * through `@petstore/types/openapi`. A reader that concatenated path-level and operation
 * parameters would make `limit` required on `GET /pets` and refuse `?limit=50`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderOperationFacts } from '@petstore/scripts/operation-facts'
import { diffSpecs, loadSpec, operationsOf } from '@petstore/scripts/spec-diff'
import { buildApp, configWith, issueApiKey, openSqliteStore, type Store } from '@petstore/server'
import { operationsOf as readerOperations } from '@petstore/types/openapi'
import { openapiDocument } from '@petstore/types/spec'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listOperations, type OpenApiDocument } from '../src/openapi.js'

type Spec = { paths: Record<string, Record<string, unknown>> }

/**
 * The bundled spec with two `/pets` parameters at path level: `limit`, required and at most 5,
 * and `status`, defaulting to `adopted`. `listPets` declares both itself (optional `limit` up to
 * 100 with a default, `status` without one), so there its own win; `createPet` declares neither,
 * so there the path's apply.
 */
function withPathLevelParameters(): Spec {
  const spec = structuredClone(openapiDocument) as unknown as Spec
  const pets = spec.paths['/pets'] as Record<string, unknown>
  pets.parameters = [
    {
      name: 'limit',
      in: 'query',
      required: true,
      schema: { type: 'integer', minimum: 1, maximum: 5 },
    },
    {
      name: 'status',
      in: 'query',
      required: false,
      schema: { $ref: '#/components/schemas/PetStatus', default: 'adopted' },
    },
  ]
  return spec
}

const spec = withPathLevelParameters()

/** What one consumer says about a parameter: `in:name`, whether required, its maximum. */
function view(parameter: object): string {
  const p = parameter as { in?: unknown; name?: unknown; required?: unknown; schema?: unknown }
  const maximum = (p.schema as { maximum?: unknown } | undefined)?.maximum
  return `${String(p.in)}:${String(p.name)} required=${p.required === true} max=${String(maximum)}`
}

/** The reading every consumer must agree with, by operationId. */
const expected = {
  listPets: [
    'query:limit required=false max=100',
    'query:status required=false max=undefined',
    'query:cursor required=false max=undefined',
    'header:X-Request-Id required=false max=undefined',
  ],
  createPet: expect.arrayContaining([
    'query:limit required=true max=5',
    'query:status required=false max=undefined',
  ]),
}

describe('the reader', () => {
  it('lets the operation override a path-level parameter by name and location', () => {
    const byId = Object.fromEntries(
      readerOperations(spec).map(({ operation, parameters }) => [
        operation.operationId,
        parameters.map(view),
      ]),
    )
    expect(byId).toMatchObject(expected)
  })
})

describe('the server', () => {
  let dir: string
  let app: Awaited<ReturnType<typeof buildApp>>
  let store: Store
  let api: string
  let auth: Record<string, string>

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-one-reading-'))
    store = openSqliteStore(join(dir, 'petstore.db'))
    app = await buildApp(configWith({ logLevel: 'silent', cursorSecret: 'x'.repeat(32) }), {
      store,
      document: spec as unknown as Record<string, unknown>,
    })
    api = `${await app.listen({ host: '127.0.0.1', port: 0 })}/v1`
    const { rawKey } = await issueApiKey(store.keys, { plan: 'pro' })
    auth = { authorization: `Bearer ${rawKey}` }
  })
  afterAll(async () => {
    await app?.close()
    await store?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  const create = (query: string) =>
    fetch(`${api}/pets${query}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    })

  it("validates listPets by the operation's limit: optional, up to 100", async () => {
    expect((await fetch(`${api}/pets`, { headers: auth })).status).toBe(200)
    expect((await fetch(`${api}/pets?limit=50`, { headers: auth })).status).toBe(200)
    expect((await fetch(`${api}/pets?limit=101`, { headers: auth })).status).toBe(400)
  })

  it("validates createPet by the path's limit: required, up to 5", async () => {
    const missing = await create('')
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { message: string }).message).toContain(
      'query parameter limit is required',
    )
    expect((await create('?limit=6')).status).toBe(400)
    expect((await create('?limit=5')).status).toBe(201)
  })
})

describe('the docs', () => {
  it('list the parameters the reader applies', () => {
    const byId = Object.fromEntries(
      listOperations(spec as unknown as OpenApiDocument).map(({ operation, parameters }) => [
        operation.operationId,
        parameters.map(view),
      ]),
    )
    expect(byId).toMatchObject(expected)
  })
})

describe('the generated facts', () => {
  it("give listPets the defaults of its own parameters and createPet the path's", () => {
    const facts = renderOperationFacts(spec).join('\n')
    const defaultsOf = (id: string) =>
      new RegExp(`"${id}": \\{\\n.*\\n.*\\n {4}defaults: \\{ query: ([^;]*);`).exec(facts)?.[1]
    expect(defaultsOf('listPets')).toBe('"limit"')
    expect(defaultsOf('createPet')).toBe('"status"')
  })
})

describe('spec:diff', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-one-reading-diff-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const load = (name: string, document: unknown) => {
    const file = join(dir, `${name}.json`)
    writeFileSync(file, JSON.stringify(document))
    return loadSpec(file).doc
  }

  it('sees the same parameters per operation', () => {
    const operations = operationsOf(load('head', spec))
    const byId = Object.fromEntries(
      [...operations.values()].map(({ id, parameters }) => [
        id,
        [...parameters.values()].map(view),
      ]),
    )
    expect(byId).toMatchObject(expected)
  })

  it('calls the path-level limit breaking for createPet only', () => {
    const changes = diffSpecs(load('base', openapiDocument), load('head', spec))
    expect(changes.map(({ rule, location }) => `${rule} ${location}`)).toEqual([
      'required-parameter-added POST /pets query parameter limit',
      'optional-parameter-added POST /pets query parameter status',
    ])
  })
})
