/**
 * The release, for real: a throwaway verdaccio registry (loopback, storage in a temp dir, no
 * uplinks), a clone of this workspace versioned with `changeset version` and published with
 * `changeset publish`, then a fresh npm project that installs the packages as a stranger would
 * and type-checks and runs a consumer against `npx petstore serve`. The real checkout is only
 * read; everything is removed afterwards, whether the test passed or not.
 *
 * Where packages come from. The registry has no uplinks, so it holds only what the release
 * published to it, and the consumer's `.npmrc` maps the `@petstore` scope to it and nowhere else:
 * every `@petstore/*` package, including the transitive `@petstore/types`, can only come from this
 * release (the lockfile's `resolved` URLs are checked). Third-party dependencies (fastify, pino,
 * openapi-fetch, better-sqlite3, ...) come from npm's default registry, as they do for a user of
 * a private registry: seeding verdaccio with copies of them would only re-serve npm's tarballs,
 * and an uplink would turn the registry into a proxy whose answers mix the release with npm's.
 *
 * better-sqlite3's binary comes from a local prebuild of the workspace's own build (see
 * sqlite-prebuild.ts) instead of a download that cannot reach its host here; everything else
 * of its install runs as usual.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { freePort } from '../src/free-port.js'
import {
  cleanEnv,
  type Daemon,
  mustRun,
  run,
  startDaemon,
  waitForHttp,
} from './release/processes.js'
import { type Registry, startRegistry } from './release/registry.js'
import { packSqlitePrebuild } from './release/sqlite-prebuild.js'
import { cloneWorkspace, commitAll } from './release/workspace.js'

const repoRoot = new URL('../../', import.meta.url).pathname
const consumerSources = new URL('./release/consumer/src/', import.meta.url).pathname
const published = ['@petstore/types', '@petstore/client', '@petstore/server'] as const
const unpublished = ['@petstore/docs', '@petstore/bench', '@petstore/scripts'] as const
const catalog = (
  parse(readFileSync(join(repoRoot, 'pnpm-workspace.yaml'), 'utf8')) as {
    catalog: Record<string, string>
  }
).catalog

let root: string
let registry: Registry | undefined
let service: Daemon | undefined
const versions = new Map<string, string>()

const workspace = () => join(root, 'workspace')
const consumer = () => join(root, 'consumer')
const elapsed: Record<string, number> = {}

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const start = Date.now()
  try {
    return await work()
  } finally {
    elapsed[step] = Math.round((Date.now() - start) / 100) / 10
  }
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T
}

function packageVersion(name: string): string {
  return readJson<{ version: string }>(
    join(workspace(), 'packages', name.replace('@petstore/', ''), 'package.json'),
  ).version
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'petstore-release-'))
  registry = await timed('registry', () => startRegistry(join(root, 'registry')))
  await timed('clone', () => cloneWorkspace(repoRoot, workspace()))
}, 300_000)

afterAll(async () => {
  await service?.stop()
  await registry?.stop()
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
  console.info(`release test steps (s): ${JSON.stringify(elapsed)}`)
}, 60_000)

describe('publishing to a real registry and installing as a stranger', () => {
  it('versions with changeset version and publishes the public packages with changeset publish', async () => {
    const reg = registry as Registry
    const before = new Map(published.map((name) => [name, packageVersion(name)]))
    writeFileSync(
      join(workspace(), '.changeset', 'release-rehearsal.md'),
      `---\n${published.map((name) => `'${name}': patch`).join('\n')}\n---\n\nRelease rehearsal.\n`,
    )
    await timed('version', () =>
      mustRun('pnpm', ['exec', 'changeset', 'version'], { cwd: workspace() }),
    )
    for (const name of published) {
      const version = packageVersion(name)
      expect(version, name).not.toBe(before.get(name))
      versions.set(name, version)
      const changelog = readFileSync(
        join(workspace(), 'packages', name.replace('@petstore/', ''), 'CHANGELOG.md'),
        'utf8',
      )
      expect(changelog).toContain(`## ${version}`)
      expect(changelog).toContain('Release rehearsal.')
    }
    await commitAll(workspace(), 'Version packages')

    writeFileSync(join(workspace(), '.npmrc'), `${reg.authLine}\n`)
    const publish = await timed('publish', () =>
      mustRun('pnpm', ['exec', 'changeset', 'publish'], {
        cwd: workspace(),
        env: cleanEnv({ npm_config_registry: reg.url }),
      }),
    )
    for (const name of published) {
      expect(publish.output).toContain(`${name}@${versions.get(name)}`)
      const packument = await reg.packument(name)
      const version = versions.get(name) as string
      expect(packument?.['dist-tags'].latest, name).toBe(version)
      const manifest = packument?.versions[version] as {
        dist: { tarball: string }
        dependencies?: Record<string, string>
      }
      expect(manifest.dist.tarball.startsWith(reg.url)).toBe(true)
      // pnpm publish rewrites the workspace's own protocols into ranges a stranger can resolve.
      for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
        expect(range, `${name} -> ${dep}`).not.toMatch(/^(workspace|catalog):/)
      }
    }
    for (const name of unpublished) expect(await reg.packument(name), name).toBeUndefined()
  }, 300_000)

  it('installs @petstore/client and @petstore/server with plain npm, @petstore/* from the registry only', async () => {
    const reg = registry as Registry
    const dir = consumer()
    mkdirSync(join(dir, 'src'), { recursive: true })
    const sqliteVersion = await packSqlitePrebuild(join(root, 'prebuilds'))
    writeFileSync(
      join(dir, '.npmrc'),
      // The scope maps to the release's registry and nowhere else; keep `resolved` in the
      // lockfile (this machine's npm config omits it) so where each package came from is on record.
      `@petstore:registry=${reg.url}\nomit-lockfile-registry-resolved=false\n`,
    )
    writeFileSync(join(dir, '.prebuild-installrc'), `local-prebuilds=${join(root, 'prebuilds')}\n`)
    await mustRun('npm', ['init', '--yes'], { cwd: dir })
    await mustRun('npm', ['pkg', 'set', 'type=module', 'private=true'], { cwd: dir })
    const install = await timed('install', () =>
      mustRun('npm', ['install', '@petstore/client', '@petstore/server', '@petstore/types'], {
        cwd: dir,
      }),
    )
    console.info(`consumer install:\n${install.output.trim()}`)
    await timed('install-dev', () =>
      mustRun(
        'npm',
        [
          'install',
          '--save-dev',
          `typescript@${catalog.typescript}`,
          `@types/node@${catalog['@types/node']}`,
        ],
        { cwd: dir },
      ),
    )

    const lock = readJson<{
      packages: Record<string, { version?: string; resolved?: string; link?: boolean }>
    }>(join(dir, 'package-lock.json'))
    for (const name of published) {
      const entry = lock.packages[`node_modules/${name}`]
      expect(entry?.version, name).toBe(versions.get(name))
      expect(entry?.resolved?.startsWith(reg.url), `${name} from ${entry?.resolved}`).toBe(true)
    }
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '') continue
      expect(entry.link, path).toBeUndefined()
      expect(entry.resolved, path).toMatch(/^https?:\/\//)
      if (path.includes('@petstore/')) expect(entry.resolved?.startsWith(reg.url), path).toBe(true)
    }
    const installedSqlite = lock.packages['node_modules/better-sqlite3']?.version
    console.info(
      installedSqlite === sqliteVersion
        ? `better-sqlite3 ${installedSqlite}: the local prebuild matched`
        : `better-sqlite3 ${installedSqlite} resolved (prebuild is ${sqliteVersion}): compiled from source`,
    )
  }, 900_000)

  const tsconfigs = {
    nodenext: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      outDir: 'dist',
    },
    bundler: { module: 'preserve', moduleResolution: 'bundler', noEmit: true },
  }

  type Resolution = keyof typeof tsconfigs
  const resolutions = Object.keys(tsconfigs) as Resolution[]

  /**
   * Copies `source` from the consumer's sources into its `src/`, and type-checks that file alone
   * with a `tsconfig.<name>.json` for `resolution` (NodeNext also emits, as a build would).
   */
  async function typeCheck(source: string, name: string, resolution: Resolution) {
    const dir = consumer()
    writeFileSync(join(dir, 'src', source), readFileSync(join(consumerSources, source)))
    const project = join(dir, `tsconfig.${name}.json`)
    const emit = name === 'nodenext' ? {} : { noEmit: true }
    writeFileSync(
      project,
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2022'],
          types: ['node'],
          strict: true,
          skipLibCheck: false,
          ...tsconfigs[resolution],
          ...emit,
        },
        files: [`src/${source}`],
      }),
    )
    return run('npx', ['--no', '--', 'tsc', '--project', project, '--pretty', 'false'], {
      cwd: dir,
    })
  }

  it.each(resolutions)(
    'type-checks a consumer under %s resolution with skipLibCheck false',
    async (resolution) => {
      const result = await typeCheck('consumer.ts', resolution, resolution)
      expect(result.output).not.toContain('error TS')
      expect(result.code, result.output).toBe(0)
    },
    120_000,
  )

  it.each(resolutions)(
    'type-checks every export of @petstore/server under %s resolution with skipLibCheck false, no @types/pg',
    async (resolution) => {
      expect(existsSync(join(consumer(), 'node_modules', '@types', 'pg'))).toBe(false)
      const result = await typeCheck('server-library.ts', `server-${resolution}`, resolution)
      expect(result.output).not.toContain('error TS')
      expect(result.code, result.output).toBe(0)
    },
    120_000,
  )

  it.each(resolutions)(
    'refuses a request body the spec does not allow under %s resolution',
    async (resolution) => {
      const result = await typeCheck('wrong-body.ts', `wrong-${resolution}`, resolution)
      expect(result.code).not.toBe(0)
      const errors = result.output.split('\n').filter((line) => line.includes('error TS'))
      expect(errors).toHaveLength(2)
      expect(errors[0]).toMatch(/wrong-body\.ts\(6,.*'nam' does not exist/)
      expect(errors[1]).toMatch(/wrong-body\.ts\(8,.*"adopted"/)
    },
    120_000,
  )

  it('runs the consumer against `npx petstore serve`, which also serves the docs', async () => {
    const dir = consumer()
    const key = await mustRun(
      'npx',
      ['--no', '--', 'petstore', 'keys', 'create', '--plan', 'free'],
      {
        cwd: dir,
      },
    )
    const apiKey = key.stdout.trim()
    expect(apiKey).not.toBe('')

    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    service = startDaemon('npx', ['--no', '--', 'petstore', 'serve'], {
      cwd: dir,
      env: cleanEnv({ PORT: String(port) }),
    })
    await timed('serve', () => waitForHttp(`${base}/v1/openapi.json`, service as Daemon))

    const docs = await fetch(`${base}/docs`)
    expect(docs.status, service.output()).toBe(200)
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await docs.text()).toMatch(/<html/i)

    // dist/consumer.js is what the NodeNext type-check above emitted.
    const consumerRun = await mustRun('node', ['dist/consumer.js'], {
      cwd: dir,
      env: cleanEnv({ PETSTORE_URL: `${base}/v1`, PETSTORE_API_KEY: apiKey }),
    })
    const seen = JSON.parse(consumerRun.stdout) as {
      created: { id: number; name: string; status: string }
      listed: number[]
      freePerMinute: number
    }
    expect(seen.created).toMatchObject({ name: 'Biscuit', status: 'pending' })
    expect(seen.listed).toContain(seen.created.id)
    expect(seen.freePerMinute).toBeGreaterThan(0)
  }, 180_000)

  it('stops the service and the registry and removes every temporary file', async () => {
    const reg = registry as Registry
    await service?.stop()
    await reg.stop()
    await expect(fetch(`${reg.url}-/ping`)).rejects.toThrow()
    rmSync(root, { recursive: true, force: true })
    expect(existsSync(root)).toBe(false)
  }, 60_000)
})
