/**
 * The paved path of extending the spec, walked on a copy of the workspace as an API team would:
 * add `PATCH /pets/{petId}` (updatePet, fixtures/extend-spec) and regenerate; the type-check names
 * the handler to write; with it and its store method the server compiles and answers, the client
 * types the call, the docs list it, `spec:diff` calls it non-breaking and the release check wants
 * a minor changeset; and on PostgreSQL, what instance A writes is what instance B reads next.
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
import { checkRelease } from '../src/spec-diff/release-check.js'
import { diffFiles } from '../src/spec-diff/run.js'
import { formatFindings } from '../src/spec-lint/finding.js'
import { lintSpec, SPECTRAL_RULESET } from '../src/spec-lint/lint.js'
import { publishedPackages, workspaceRoot } from '../src/workspace.js'
import { added, addHandlerAndStoreMethod, addOperationToSpec } from './extend-spec/fixture.js'
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
  addOperationToSpec(copy)
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

async function send(url: string, key: string, method: string, body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
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

describe('adding updatePet to the spec', () => {
  it('passes the spec lint that pnpm lint runs (Spectral and the example rule)', async () => {
    const findings = await lintSpec({
      spec: join(copy, 'spec/openapi.yaml'),
      ruleset: join(copy, SPECTRAL_RULESET),
    })
    expect(formatFindings(findings)).toBe('')
  })

  it('fails the type-check naming the operation that has no handler', async () => {
    const { code, output } = await typecheckServer()
    expect(code, output).not.toBe(0)
    expect(output).toContain(`Property '${added.operationId}' is missing`)
    expect(output).toMatch(/src\/routes\/pets\/handlers\.ts/)
  })

  it('compiles with the handler and the store method, and the service answers it', async () => {
    addHandlerAndStoreMethod(copy)
    const { code, output } = await typecheckServer()
    expect(code, output).toBe(0)

    const env = { PETSTORE_DB: join(copy, 'data/extend.db') }
    const key = await createKey(env)
    const url = await startService(env)
    const created = await send(`${url}/v1/pets`, key, 'POST', { name: 'Rex', categoryId: 1 })
    expect(created.status).toBe(201)
    const changed = await send(`${url}/v1/pets/${created.body.id}`, key, 'PATCH', {
      status: 'sold',
    })
    expect(changed).toEqual({ status: 200, body: { ...created.body, status: 'sold' } })
    const unknown = await send(`${url}/v1/pets/999999`, key, 'PATCH', { status: 'sold' })
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found'])
    const empty = await send(`${url}/v1/pets/${created.body.id}`, key, 'PATCH', {})
    expect([empty.status, empty.body.code]).toEqual([400, 'invalid_request'])

    // The typed client: its PATCH is typed by the regenerated paths, and works.
    writeFileSync(
      join(copy, 'packages/client/update-pet.ts'),
      readFileSync(new URL('fixtures/extend-spec/client-update.ts.fragment', import.meta.url)),
    )
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
        'update-pet.ts',
      ],
      { cwd: join(copy, 'packages/client') },
    )
    expect(clientCheck.code, clientCheck.output).toBe(0)
    const called = await mustRun(
      node,
      [tsx, 'update-pet.ts', `${url}/v1`, key, String(created.body.id)],
      {
        cwd: join(copy, 'packages/client'),
      },
    )
    expect(JSON.parse(called.stdout)).toEqual({ name: 'Rex II' })
  })

  it('is listed in the built docs', async () => {
    await mustRun(node, [tsx, 'scripts/build.ts'], { cwd: join(copy, 'packages/docs') })
    const html = readFileSync(join(copy, 'packages/docs/dist/index.html'), 'utf8')
    expect(html).toContain(`Operation ID: \`${added.operationId}\``)
  })

  it('is a non-breaking change that needs a minor changeset for each published package', () => {
    const base = join(copy, 'spec/released/openapi.yaml')
    const head = join(copy, 'spec/openapi.yaml')
    const diff = diffFiles(base, head)
    expect(diff.changes.map((change) => change.kind)).toEqual(['non-breaking'])

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
      join(changesetDir, 'update-pet.md'),
      `---\n${frontmatter}\n---\n\nAdd updatePet.\n`,
    )
    expect(checkRelease(input).problems).toEqual([])
  })

  it('on PostgreSQL, instance B reads what instance A just wrote', async () => {
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
      const created = await send(`${a}/v1/pets`, key, 'POST', { name: 'Rex', categoryId: 1 })
      const path = `/v1/pets/${created.body.id}`
      // Twice, so B has the pet in its cache before A changes it.
      for (let i = 0; i < 2; i++)
        expect((await send(`${b}${path}`, key, 'GET')).body.name).toBe('Rex')
      expect((await send(`${a}${path}`, key, 'PATCH', { name: 'Rex II' })).status).toBe(200)
      expect((await send(`${b}${path}`, key, 'GET')).body.name).toBe('Rex II')
    } finally {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`)
      await admin.end()
    }
  })
})
