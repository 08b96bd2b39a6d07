/**
 * The paved path of extending the spec, walked on a copy of the workspace as an API team would in
 * a week (fixtures/extend-spec): a resource of its own, shelters (list with a filter, create,
 * read, a JSON merge patch under `If-Match`, delete), and on pets a nested `medical` record with
 * a boolean filter on it (`listPets?vaccinated=true`, read from `medical.vaccinated`). The spec
 * passes the lint and the support table, and the type-check names the tables the code must add
 * them to; with those entries, two migrations and a routes file, the server compiles and answers
 * on SQLite and, with two instances, on PostgreSQL: keyset pages, filters, Location, idempotent
 * creates, cursors of its own, merge patches, deletes, strict booleans; the server's own suites
 * that read the spec (fuzz, store conformance, filter walks) pass on it; the typed client follows
 * (sending the media type each operation declares), the docs list the operations and their
 * samples run, `spec:diff` calls it non-breaking and the release check wants a minor changeset.
 * The steps are one walk, in order: each builds on the copy the one before left.
 */
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { checkRelease } from '../src/spec-diff/release-check.js'
import { diffFiles } from '../src/spec-diff/run.js'
import { formatFindings } from '../src/spec-lint/finding.js'
import { lintSpec, SPECTRAL_RULESET } from '../src/spec-lint/lint.js'
import { plainYamlOptions } from '../src/spec-lint/plain-yaml.js'
import { publishedPackages, workspaceRoot } from '../src/workspace.js'
import {
  added,
  addResourceCode,
  extendSpec,
  fixture,
  handEditedFiles,
  nestedFilter,
} from './extend-spec/fixture.js'
import { linkedCopy } from './extend-spec/linked-copy.js'
import { cleanEnv, type Daemon, mustRun, run, startDaemon } from './release/processes.js'

const root = workspaceRoot
const tsc = join(root, 'node_modules/typescript/bin/tsc')
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs')
const node = process.execPath
let copy: string
const daemons: Daemon[] = []

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'petstore-extend-'))
  await linkedCopy(root, copy)
  // The spec as it is counts as released, so the diff is the fixture's edits alone.
  copyFileSync(join(copy, 'spec/openapi.yaml'), join(copy, 'spec/released/openapi.yaml'))
  extendSpec(copy)
  // As a team runs it: it refuses a spec outside the support table, and rebuilds what the other
  // packages and their tests import of @petstore/types (its dist/).
  await mustRun('pnpm', ['generate'], { cwd: copy })
}, 120_000)

afterAll(async () => {
  await Promise.all(daemons.map((daemon) => daemon.stop()))
  if (copy) rmSync(copy, { recursive: true, force: true })
})

const typecheckServer = () =>
  run(node, [tsc, '--noEmit', '-p', 'packages/server/tsconfig.build.json'], { cwd: copy })

/** The copy's service from source, on a free port; resolves with its base URL once listening. */
async function startService(env: Record<string, string>): Promise<string> {
  const daemon = startDaemon(node, [tsx, 'packages/server/src/server.ts'], {
    cwd: copy,
    // Every answer is held to the headers the spec requires of it, as in the server's tests.
    env: cleanEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      PETSTORE_RESPONSE_CHECK: 'fail',
      ...env,
    }),
  })
  daemons.push(daemon)
  const deadline = Date.now() + 30_000
  for (;;) {
    const url = /listening on (http:\/\/[^/\s]+)\/v1/.exec(daemon.output())?.[1]
    if (url !== undefined) return url
    if (daemon.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the service did not start:\n${daemon.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function createKey(env: Record<string, string>): Promise<string> {
  const args = [tsx, 'packages/server/src/cli/main.ts', 'keys', 'create', '--plan', 'pro']
  const { stdout } = await mustRun(node, args, { cwd: copy, env: cleanEnv(env) })
  return stdout.trim()
}

type Body = Record<string, unknown>

/**
 * A request, its body as JSON (`content-type` in `headers` overrides); the reply with its parsed
 * body.
 */
async function send(
  url: string,
  key: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: (text === '' ? {} : JSON.parse(text)) as Body,
  }
}

const mergePatch = { 'content-type': 'application/merge-patch+json' }

/** The pattern the copy's spec gives createShelter's `Location` header. */
function declaredLocationPattern(): string {
  const spec = parse(readFileSync(join(copy, 'spec/openapi.yaml'), 'utf8'), plainYamlOptions)
  const header = spec.paths[added.path].post.responses['201'].headers.Location
  const name = String(header.$ref).split('/').at(-1) as string
  return spec.components.headers[name].schema.pattern
}

/** The URL of a reply's `next` link, resolved against `base`; undefined on the last page. */
function nextOf(reply: { headers: Headers }, base: string): string | undefined {
  const link = /<([^>]+)>; rel="next"/.exec(reply.headers.get('link') ?? '')?.[1]
  return link === undefined ? undefined : new URL(link, base).toString()
}

/** Every item of a listing, page after page. */
async function walk(first: string, key: string): Promise<Body[]> {
  const items: Body[] = []
  for (let next: string | undefined = first; next !== undefined; ) {
    const page = await send(next, key, 'GET')
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    items.push(...(page.body as unknown as Body[]))
    next = nextOf(page, first)
  }
  return items
}

const ids = (items: Body[]) => items.map((item) => item.id)

/** Pets with and without the nested record: what the boolean filter is tried on. */
const medicalPets = [
  { name: 'Jab', categoryId: 1, medical: { vaccinated: true } },
  { name: 'Nojab', categoryId: 1, medical: { vaccinated: false } },
  { name: 'Unknown', categoryId: 1 },
  { name: 'Booster', categoryId: 2, medical: { vaccinated: true } },
]

/** Creates `medicalPets` through `instances` in turn; their ids by whether they are vaccinated. */
async function createMedicalPets(instances: string[], key: string) {
  const byValue = { true: [] as unknown[], false: [] as unknown[] }
  for (const [index, pet] of medicalPets.entries()) {
    const base = instances[index % instances.length] as string
    const created = await send(`${base}/v1/pets`, key, 'POST', pet)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.medical).toEqual(pet.medical)
    if (pet.medical !== undefined) byValue[`${pet.medical.vaccinated}`].push(created.body.id)
  }
  expect(byValue.true).toHaveLength(2)
  return byValue
}

/** The part of `pg` used here: the server's dependency, which this package does not declare. */
interface PgModule {
  Client: new (config: {
    connectionString: string
  }) => {
    connect(): Promise<void>
    query(sql: string): Promise<unknown>
    end(): Promise<void>
  }
}

/** The PostgreSQL the server's tests use (packages/server/test/services.ts). */
const database = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** Each step compiles, builds or starts services: minutes on a loaded 2-core machine. */
const stepTimeout = 180_000

/** The SQLite service the steps after the compile share, with its key. */
const sqlite = { url: '', key: '' }

describe('a week of spec edits: shelters, and a nested boolean filter on pets', {
  timeout: stepTimeout,
}, () => {
  it('passes the spec lint that pnpm lint runs (Spectral and our rules)', async () => {
    const findings = await lintSpec({
      spec: join(copy, 'spec/openapi.yaml'),
      ruleset: join(copy, SPECTRAL_RULESET),
    })
    expect(formatFindings(findings)).toBe('')
  })

  it('is in the built @petstore/types once `pnpm generate` ran, with no build of its own', () => {
    const dist = join(copy, 'packages/types/dist/generated')
    const types = readFileSync(join(dist, 'schema.d.ts'), 'utf8')
    for (const name of [added.list, added.update, 'ShelterPatch', nestedFilter.parameter]) {
      expect(types).toContain(name)
    }
    const bundled = JSON.parse(readFileSync(join(dist, 'openapi.json'), 'utf8'))
    expect(Object.keys(bundled.paths)).toContain(added.path)
  })

  it('fails the type-check naming each table to extend and the operations to route', async () => {
    const { code, output } = await typecheckServer()
    expect(code, output).not.toBe(0)
    // The new resource's listing, and the filter the pets' listing gained.
    expect(output).toMatch(/src\/store\/resources\.ts.*\blistShelters\b/)
    expect(output).toMatch(
      new RegExp(`src/store/resources\\.ts.*Property '${nestedFilter.parameter}' is missing`),
    )
    // The header its create answers with, which some part of the service must write.
    expect(output).toMatch(
      /src\/http\/response-headers\.ts\(\d+,\d+\): error.*\n\s+Property 'ShelterLocation' is missing/,
    )
    for (const operationId of [added.list, added.create, added.get, added.update, added.remove]) {
      expect(output).toMatch(new RegExp(`src/app\\.ts.*missing.*\\b${operationId}\\b`, 's'))
    }
  })

  it('takes five files by hand besides the spec and a changeset', () => {
    expect(handEditedFiles.length + 2).toBeLessThanOrEqual(7)
  })

  it('compiles with its entries and routes, and the service serves the collection', async () => {
    addResourceCode(copy)
    const { code, output } = await typecheckServer()
    expect(code, output).toBe(0)

    const env = { PETSTORE_DB: join(copy, 'data/extend.db') }
    sqlite.key = await createKey(env)
    sqlite.url = await startService(env)
    const { url, key } = sqlite
    const shelters = `${url}/v1${added.path}`
    const northside = { name: 'Northside', city: 'Springfield', capacity: 40 }
    const once = { 'idempotency-key': '"shelter-1"' }
    const created = await send(shelters, key, 'POST', northside, once)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toEqual({ id: 1, ...northside })
    expect(created.headers.get('location')).toBe(`/v1${added.path}/1`)
    // As the copy's spec declares it, so that a fuzzer or a client checking headers agrees.
    expect(created.headers.get('location')).toMatch(new RegExp(declaredLocationPattern()))
    expect(created.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/)
    const replayed = await send(shelters, key, 'POST', northside, once)
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(replayed.body).toEqual(created.body)
    const reused = await send(shelters, key, 'POST', { ...northside, capacity: 41 }, once)
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused'])
    // The same key on another operation's create is a reuse, not a replay of a shelter.
    const pet = await send(`${url}/v1/pets`, key, 'POST', { name: 'Rex', categoryId: 1 }, once)
    expect([pet.status, pet.body.code]).toEqual([422, 'idempotency_key_reused'])

    expect((await send(`${shelters}/1`, key, 'GET')).body).toEqual(created.body)
    const unknown = await send(`${shelters}/999`, key, 'GET')
    expect([unknown.status, unknown.body.message]).toEqual([404, 'shelter 999 does not exist'])

    for (const city of ['Shelbyville', 'Springfield', 'Shelbyville']) {
      const more = await send(shelters, key, 'POST', { name: 'Branch', city, capacity: 5 })
      expect(more.status, JSON.stringify(more.body)).toBe(201)
    }
    expect(ids(await walk(`${shelters}?limit=1&city=Shelbyville`, key))).toEqual([2, 4])
    expect(ids(await walk(`${shelters}?limit=2`, key))).toEqual([1, 2, 3, 4])

    // Cursors are bound to their listing: a pets cursor is refused by listShelters.
    for (const name of ['Max', 'Bella'])
      await send(`${url}/v1/pets`, key, 'POST', { name, categoryId: 1 })
    const petsPage = await send(`${url}/v1/pets?limit=1`, key, 'GET')
    const petsCursor = new URL(nextOf(petsPage, url) as string).searchParams.get('cursor')
    const foreign = await send(`${shelters}?cursor=${petsCursor}`, key, 'GET')
    expect([foreign.status, foreign.body.code]).toEqual([400, 'invalid_request'])
  })

  it('applies a JSON merge patch under If-Match, and deletes', async () => {
    const { url, key } = sqlite
    const one = `${url}/v1${added.path}/1`
    const read = await send(one, key, 'GET')
    const etag = read.headers.get('etag') as string
    expect(etag).toMatch(/^"/)

    // The media type the operation declares, and no other.
    const asJson = await send(one, key, 'PATCH', { capacity: 60 }, { 'if-match': etag })
    expect([asJson.status, asJson.body.code]).toEqual([415, 'unsupported_media_type'])
    const stale = await send(
      one,
      key,
      'PATCH',
      { capacity: 60 },
      {
        ...mergePatch,
        'if-match': '"stale"',
      },
    )
    expect([stale.status, stale.body.code]).toEqual([412, 'precondition_failed'])
    // A patch may not leave the shelter invalid (`null` removes a required property).
    const emptied = await send(one, key, 'PATCH', { name: null }, mergePatch)
    expect([emptied.status, emptied.body.code]).toEqual([400, 'invalid_request'])
    expect((await send(one, key, 'GET')).headers.get('etag')).toBe(etag)

    // Merged: the city moves, the rest stays; the filter and its cache follow at once.
    const moved = await send(
      one,
      key,
      'PATCH',
      { city: 'Shelbyville' },
      {
        ...mergePatch,
        'if-match': etag,
      },
    )
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(moved.body).toEqual({ ...read.body, city: 'Shelbyville' })
    expect(moved.headers.get('etag')).not.toBe(etag)
    expect((await send(one, key, 'GET')).body).toEqual(moved.body)
    const shelters = `${url}/v1${added.path}`
    expect(ids(await walk(`${shelters}?limit=1&city=Shelbyville`, key))).toEqual([1, 2, 4])
    expect(ids(await walk(`${shelters}?city=Springfield`, key))).toEqual([3])

    const deleteStale = await send(one, key, 'DELETE', undefined, { 'if-match': etag })
    expect([deleteStale.status, deleteStale.body.code]).toEqual([412, 'precondition_failed'])
    const current = moved.headers.get('etag') as string
    const deleted = await send(one, key, 'DELETE', undefined, { 'if-match': current })
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204)
    expect((await send(one, key, 'GET')).status).toBe(404)
    expect((await send(one, key, 'DELETE')).status).toBe(404)
    expect(ids(await walk(`${shelters}?limit=1&city=Shelbyville`, key))).toEqual([2, 4])
    // Its id is never given again.
    const next = await send(shelters, key, 'POST', {
      name: 'Newer',
      city: 'Ogdenville',
      capacity: 1,
    })
    expect(next.body.id).toBe(5)
  })

  it('filters pets by the nested boolean, strictly spelled', async () => {
    const { url, key } = sqlite
    const byValue = await createMedicalPets([url], key)
    const pets = `${url}/v1/pets`
    const { parameter } = nestedFilter
    expect(ids(await walk(`${pets}?limit=1&${parameter}=true`, key))).toEqual(byValue.true)
    expect(ids(await walk(`${pets}?limit=1&${parameter}=false`, key))).toEqual(byValue.false)
    const both = await walk(`${pets}?status=available&${parameter}=true`, key)
    expect(ids(both)).toEqual(byValue.true)
    for (const spelling of ['1', 'TRUE', 'yes', '']) {
      const refused = await send(`${pets}?${parameter}=${spelling}`, key, 'GET')
      expect([refused.status, refused.body.code], spelling).toEqual([400, 'invalid_request'])
      expect(refused.body.message).toContain(parameter)
    }
  })

  it("passes the server's suites that read the spec: fuzz, store conformance, every filter", async () => {
    // The copy's own suites, from its spec and resources: valid and broken requests to every
    // operation (`vaccinated=TRUE`, `1`, ... and every shelter operation's), each answer checked
    // against what the spec declares; each resource's store on SQLite and PostgreSQL, its nested
    // filter included; every filter of every listing walked page by page over HTTP.
    const server = join(copy, 'packages/server')
    const vitest = join(server, 'node_modules/vitest/vitest.mjs')
    const suites = [
      'test/fuzz/conformance.test.ts',
      'test/store/sqlite.test.ts',
      'test/store/postgres.test.ts',
      'test/routes/filters.test.ts',
    ]
    const args = ['run', '--project', 'node', '--reporter=verbose', ...suites]
    const ran = await run(node, [vitest, ...args], {
      cwd: server,
      env: cleanEnv({ PETSTORE_FUZZ_RUNS: '900', DATABASE_URL: database }),
    })
    expect(ran.code, ran.output).toBe(0)
    expect(ran.output).toMatch(/fuzz: 900 requests .* 0 non-conforming, 0 5xx/)
    for (const filter of [nestedFilter.parameter, 'city']) {
      expect(ran.output).toContain(`filters by ${filter} as its rule says`)
      expect(ran.output).toContain(`restricts by ${filter} on every page`)
    }
  })

  it('is called by the typed client as declared, with no edit of the client', async () => {
    const { url, key } = sqlite
    writeFileSync(join(copy, 'packages/client/shelters.ts'), fixture('client-shelters.ts.fragment'))
    const clientCheck = await run(
      node,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        'shelters.ts',
      ],
      { cwd: join(copy, 'packages/client') },
    )
    expect(clientCheck.code, clientCheck.output).toBe(0)
    const called = await run(node, [tsx, 'shelters.ts', `${url}/v1`, key], {
      cwd: join(copy, 'packages/client'),
    })
    // The declared media type of each body, whatever else failed (415 if it was not sent).
    expect(called.output).not.toContain('unsupported_media_type')
    expect(called.code, called.output).toBe(0)
    const seen = JSON.parse(called.stdout)
    expect(seen.contentTypes).toMatchObject({
      POST: expect.stringMatching(/^application\/json\b/),
      PATCH: expect.stringMatching(/^application\/merge-patch\+json\b/),
    })
    expect(seen).toMatchObject({
      capacities: [10, 20, 30],
      locations: (seen.ids as number[]).map((id) => `/v1${added.path}/${id}`),
      patched: 15,
      deleted: 204,
      vaccinated: ['Jab', 'Booster'],
    })
  })

  it('is listed in the built docs, whose samples of it run in order', async () => {
    const docs = join(copy, 'packages/docs')
    await mustRun(node, [tsx, 'scripts/build.ts'], { cwd: docs })
    const html = readFileSync(join(docs, 'dist/index.html'), 'utf8')
    const operations = [added.create, added.list, added.get, added.update, added.remove]
    for (const operationId of operations) {
      expect(html).toContain(`Operation ID: \`${operationId}\``)
    }

    // On a database of their own: a reader runs them top to bottom, creation first, deletion
    // last, each on the id its example names.
    const env = { PETSTORE_DB: join(copy, 'data/samples.db') }
    const key = await createKey(env)
    const url = await startService(env)
    writeFileSync(join(docs, 'samples.ts'), fixture('docs-samples.ts.fragment'))
    const { stdout } = await mustRun(
      node,
      [tsx, 'samples.ts', `${url}/v1`, ...operations, 'listPets'],
      { cwd: docs },
    )
    const samples = JSON.parse(stdout) as Record<string, string>
    for (const operationId of [...operations, 'listPets']) {
      const source = samples[operationId]
      expect(source, `${operationId} has no JavaScript sample`).toBeDefined()
      const file = join(docs, `sample-${operationId}.mjs`)
      writeFileSync(file, source as string)
      const ran = await run(node, [file], {
        cwd: docs,
        env: cleanEnv({ PETSTORE_API_KEY: key }),
      })
      expect(ran.code, `${operationId}'s sample:\n${source}\n${ran.output}`).toBe(0)
    }
  })

  it('is a non-breaking change that needs a minor changeset for each published package', () => {
    const base = join(copy, 'spec/released/openapi.yaml')
    const head = join(copy, 'spec/openapi.yaml')
    const diff = diffFiles(base, head)
    expect(diff.changes.length).toBeGreaterThan(0)
    expect(new Set(diff.changes.map((change) => change.kind))).toEqual(new Set(['non-breaking']))

    const changesetDir = join(copy, '.changeset')
    for (const file of readdirSync(changesetDir).filter((name) => name.endsWith('.md'))) {
      if (file !== 'README.md') rmSync(join(changesetDir, file))
    }
    const packages = publishedPackages(copy).map((pkg) => pkg.manifest.name)
    const input = { baseFile: base, headFile: head, changesetDir, packages }
    const without = checkRelease(input)
    expect(without.needed).toBe('minor')
    expect(without.ok).toBe(false)
    for (const name of packages) expect(without.problems.join('\n')).toContain(name)

    const frontmatter = packages.map((name) => `"${name}": minor`).join('\n')
    writeFileSync(
      join(changesetDir, 'shelters.md'),
      `---\n${frontmatter}\n---\n\nAdd shelters, and pets' medical record.\n`,
    )
    expect(checkRelease(input).problems).toEqual([])
  })

  it('on PostgreSQL, two instances share every write and filter alike', async () => {
    const pg = createRequire(join(root, 'packages/server/package.json'))('pg') as PgModule
    const admin = new pg.Client({ connectionString: database })
    try {
      await admin.connect()
    } catch (error) {
      if (process.env.CI === 'true') throw error
      process.stderr.write(
        `\n!!!!!!!! NOT RUN: PostgreSQL is not reachable at ${database} !!!!!!!!\n\n`,
      )
      return
    }
    const schema = `extend_${process.pid}_${Date.now()}`
    await admin.query(`CREATE SCHEMA ${schema}`)
    try {
      const url = new URL(database)
      url.searchParams.set('options', `-c search_path=${schema}`)
      const env = { DATABASE_URL: url.toString() }
      const key = await createKey(env)
      const [a, b] = await Promise.all([startService(env), startService(env)])
      const at = (instance: string, path = '') => `${instance}/v1${added.path}${path}`
      for (const [instance, capacity] of [
        [a, 1],
        [b, 2],
        [a, 3],
      ] as const) {
        const created = await send(at(instance), key, 'POST', {
          name: 'Branch',
          city: 'Capital City',
          capacity,
        })
        expect(created.status, JSON.stringify(created.body)).toBe(201)
      }
      const listed = await walk(`${at(b)}?limit=1&city=Capital%20City`, key)
      expect(listed.map((shelter) => shelter.capacity)).toEqual([1, 2, 3])

      // Read on one, patched on the other under the tag the first gave: the first sees it.
      const read = await send(at(a, '/1'), key, 'GET')
      const patched = await send(
        at(b, '/1'),
        key,
        'PATCH',
        { capacity: 9 },
        {
          ...mergePatch,
          'if-match': read.headers.get('etag') as string,
        },
      )
      expect(patched.status, JSON.stringify(patched.body)).toBe(200)
      expect((await send(at(a, '/1'), key, 'GET')).body).toEqual({ ...read.body, capacity: 9 })
      expect((await send(at(a, '/2'), key, 'DELETE')).status).toBe(204)
      expect((await send(at(b, '/2'), key, 'GET')).status).toBe(404)
      expect(ids(await walk(`${at(a)}?limit=1`, key))).toEqual([1, 3])

      const byValue = await createMedicalPets([a, b], key)
      const pets = (instance: string) => `${instance}/v1/pets?limit=1&${nestedFilter.parameter}`
      expect(ids(await walk(`${pets(b)}=true`, key))).toEqual(byValue.true)
      expect(ids(await walk(`${pets(a)}=false`, key))).toEqual(byValue.false)
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    }
  })
})
