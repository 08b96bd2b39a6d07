/**
 * The paved path of extending the spec, walked on a copy of the workspace as an API team would:
 * add a resource, store orders (list, create, get: fixtures/extend-spec), and regenerate; the
 * type-check names the tables to add it to; with those entries, one migration and its routes
 * file, the server compiles and answers, with keyset pages, filters, Location, idempotent
 * creates and cursors of its own; the typed client and `paginate` follow, the docs list it,
 * `spec:diff` calls it non-breaking and the release check wants a minor changeset; and on
 * PostgreSQL, two instances page through what either created. The steps are one walk, in
 * order: each builds on the copy the one before left.
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
  addResourceToSpec,
  fixture,
  handEditedFiles,
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
  // The spec as it is counts as released, so the diff is the added operation alone.
  copyFileSync(join(copy, 'spec/openapi.yaml'), join(copy, 'spec/released/openapi.yaml'))
  addResourceToSpec(copy)
  await mustRun(node, [tsx, 'scripts/src/generate-types.ts'], { cwd: copy })
  await mustRun(node, [tsc, '-p', 'packages/types/tsconfig.build.json'], { cwd: copy })
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
    env: cleanEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }),
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

async function send(
  url: string,
  key: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  }
}

/** The pattern the copy's spec gives createOrder's `Location` header. */
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
async function walk(first: string, key: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = []
  for (let next: string | undefined = first; next !== undefined; ) {
    const page = await send(next, key, 'GET')
    expect(page.status).toBe(200)
    items.push(...(page.body as unknown as Record<string, unknown>[]))
    next = nextOf(page, first)
  }
  return items
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

/** Each step compiles, builds or starts services: minutes on a loaded 2-core machine. */
const stepTimeout = 180_000

describe('adding a resource (store orders) to the spec', { timeout: stepTimeout }, () => {
  it('passes the spec lint that pnpm lint runs (Spectral and our rules)', async () => {
    const findings = await lintSpec({
      spec: join(copy, 'spec/openapi.yaml'),
      ruleset: join(copy, SPECTRAL_RULESET),
    })
    expect(formatFindings(findings)).toBe('')
  })

  it('fails the type-check naming the resource to define and the operations to route', async () => {
    const { code, output } = await typecheckServer()
    expect(code, output).not.toBe(0)
    expect(output).toMatch(/src\/store\/resources\.ts.*Property 'listOrders' is missing/)
    for (const operationId of [added.list, added.create, added.get]) {
      expect(output).toMatch(new RegExp(`src/app\\.ts.*missing.*\\b${operationId}\\b`, 's'))
    }
  })

  it('takes four files by hand besides the spec and a changeset', () => {
    expect(handEditedFiles.length + 2).toBeLessThanOrEqual(8)
  })

  it('compiles with its entries and routes, and the service serves the collection', async () => {
    addResourceCode(copy)
    const { code, output } = await typecheckServer()
    expect(code, output).toBe(0)

    const env = { PETSTORE_DB: join(copy, 'data/extend.db') }
    const key = await createKey(env)
    const url = await startService(env)
    const orders = `${url}/v1${added.path}`
    const once = { 'idempotency-key': '"order-1"' }
    const created = await send(orders, key, 'POST', { petId: 1, quantity: 2 }, once)
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ id: 1, petId: 1, quantity: 2, status: 'placed' })
    expect(created.headers.get('location')).toBe(`/v1${added.path}/1`)
    // As the copy's spec declares it, so that a fuzzer or a client checking headers agrees.
    expect(created.headers.get('location')).toMatch(new RegExp(declaredLocationPattern()))
    const replayed = await send(orders, key, 'POST', { petId: 1, quantity: 2 }, once)
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(replayed.body).toEqual(created.body)
    const reused = await send(orders, key, 'POST', { petId: 1, quantity: 3 }, once)
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused'])
    // The same key on another operation's create is a reuse, not a replay of an order.
    const pet = await send(`${url}/v1/pets`, key, 'POST', { name: 'Rex', categoryId: 1 }, once)
    expect([pet.status, pet.body.code]).toEqual([422, 'idempotency_key_reused'])

    expect((await send(`${orders}/1`, key, 'GET')).body).toEqual(created.body)
    const unknown = await send(`${orders}/999`, key, 'GET')
    expect([unknown.status, unknown.body.message]).toEqual([404, 'order 999 does not exist'])

    for (const status of ['approved', 'placed', 'approved']) {
      expect((await send(orders, key, 'POST', { petId: 2, quantity: 1, status })).status).toBe(201)
    }
    const approved = await walk(`${orders}?limit=1&status=approved`, key)
    expect(approved.map((order) => order.id)).toEqual([2, 4])
    expect((await walk(`${orders}?limit=2`, key)).map((order) => order.id)).toEqual([1, 2, 3, 4])

    // Cursors are bound to their listing: a pets cursor is refused by listOrders.
    for (const name of ['Max', 'Bella'])
      await send(`${url}/v1/pets`, key, 'POST', { name, categoryId: 1 })
    const petsPage = await send(`${url}/v1/pets?limit=1`, key, 'GET')
    const petsCursor = new URL(nextOf(petsPage, url) as string).searchParams.get('cursor')
    const foreign = await send(`${orders}?cursor=${petsCursor}`, key, 'GET')
    expect([foreign.status, foreign.body.code]).toEqual([400, 'invalid_request'])

    // The typed client: its calls are typed by the regenerated paths, paginate walks orders.
    writeFileSync(join(copy, 'packages/client/orders.ts'), fixture('client-orders.ts.fragment'))
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
        'orders.ts',
      ],
      { cwd: join(copy, 'packages/client') },
    )
    expect(clientCheck.code, clientCheck.output).toBe(0)
    const called = await mustRun(node, [tsx, 'orders.ts', `${url}/v1`, key], {
      cwd: join(copy, 'packages/client'),
    })
    expect(JSON.parse(called.stdout)).toEqual({ quantities: [2, 1, 1, 2, 3] })
  })

  it('is listed in the built docs', async () => {
    await mustRun(node, [tsx, 'scripts/build.ts'], { cwd: join(copy, 'packages/docs') })
    const html = readFileSync(join(copy, 'packages/docs/dist/index.html'), 'utf8')
    for (const operationId of [added.list, added.create, added.get]) {
      expect(html).toContain(`Operation ID: \`${operationId}\``)
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
      join(changesetDir, 'orders.md'),
      `---\n${frontmatter}\n---\n\nAdd store orders.\n`,
    )
    expect(checkRelease(input).problems).toEqual([])
  })

  it('on PostgreSQL, two instances page through the orders either created', async () => {
    const pg = createRequire(join(root, 'packages/server/package.json'))('pg') as PgModule
    const database = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
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
      for (const [instance, quantity] of [
        [a, 1],
        [b, 2],
        [a, 3],
      ] as const) {
        const created = await send(`${instance}/v1${added.path}`, key, 'POST', {
          petId: 1,
          quantity,
        })
        expect(created.status).toBe(201)
      }
      const listed = await walk(`${b}/v1${added.path}?limit=1`, key)
      expect(listed.map((order) => order.quantity)).toEqual([1, 2, 3])
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    }
  })
})
