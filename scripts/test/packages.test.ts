/**
 * The published packages as npm users get them: each is packed with `pnpm pack` (as
 * `changeset publish` does) and the tarball is checked: publint --strict and
 * are-the-types-wrong (ESM-only profile) find nothing, the manifest is complete and carries
 * ranges users can deduplicate, the files are what we mean to ship, a NodeNext consumer
 * type-checks against the tarballs with `skipLibCheck: false`, and the server installed from its
 * tarball serves /v1 and its docs. Turbo builds the packages (and the docs) before this test.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { publishedPackages, type WorkspacePackage, workspaceRoot } from '../src/workspace.js'

const run = promisify(execFile)
const require = createRequire(import.meta.url)
const tsc = require.resolve('typescript/bin/tsc')
const attw = join(workspaceRoot, 'scripts', 'node_modules', '.bin', 'attw')

interface Packed {
  pkg: WorkspacePackage
  tarball: string
  /** The unpacked tarball (its `package/` folder). */
  dir: string
  files: string[]
  manifest: Record<string, unknown>
}

const packages = publishedPackages()
const packed = new Map<string, Packed>()
let tmp: string

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'petstore-packages-'))
  for (const pkg of packages) {
    const out = join(tmp, 'tarballs')
    const { stdout } = await run('pnpm', ['pack', '--pack-destination', out], { cwd: pkg.dir })
    const tarball = stdout.trim().split('\n').at(-1) ?? ''
    const dir = join(tmp, 'unpacked', pkg.importerId)
    mkdirSync(dir, { recursive: true })
    await run('tar', ['xzf', tarball, '-C', dir])
    const files = (await run('tar', ['tzf', tarball])).stdout
      .trim()
      .split('\n')
      .map((file) => file.replace(/^package\//, ''))
    const manifest = JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8'))
    packed.set(pkg.manifest.name, { pkg, tarball, dir: join(dir, 'package'), files, manifest })
  }
}, 120_000)
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const get = (name: string): Packed => {
  const found = packed.get(name)
  if (found === undefined) throw new Error(`${name} was not packed`)
  return found
}

it('publishes exactly types, client and server', () => {
  expect(packages.map((pkg) => pkg.manifest.name)).toEqual([
    '@petstore/client',
    '@petstore/server',
    '@petstore/types',
  ])
})

const catalog = (
  parse(readFileSync(join(workspaceRoot, 'pnpm-workspace.yaml'), 'utf8')) as {
    catalog: Record<string, string>
  }
).catalog
const lockfile = parse(readFileSync(join(workspaceRoot, 'pnpm-lock.yaml'), 'utf8')) as {
  importers: Record<string, { dependencies?: Record<string, { version: string }> }>
}
const rootLicense = readFileSync(join(workspaceRoot, 'LICENSE'), 'utf8')

describe.each(packages.map((pkg) => pkg.manifest.name))('%s', (name) => {
  it('passes publint --strict with no message at all', async () => {
    const { tarball } = get(name)
    const data = readFileSync(tarball)
    const { messages, pkg } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      strict: true,
    })
    expect(messages.map((message) => formatMessage(message, pkg, { color: false }))).toEqual([])
  })

  it('has no are-the-types-wrong problem for an ESM-only package', async () => {
    const { tarball } = get(name)
    const result = await run(attw, [tarball, '--profile', 'esm-only', '--format', 'json']).catch(
      (error: { stdout: string; code: number }) => error,
    )
    const report = JSON.parse(result.stdout) as {
      problems?: Record<string, { resolutionKind?: string }[]>
    }
    // The report lists every resolution; the profile only leaves CommonJS ones out of the verdict.
    const esmOnlyIgnores = ['node10', 'node16-cjs']
    const problems = Object.values(report.problems ?? {})
      .flat()
      .filter((problem) => !esmOnlyIgnores.includes(problem.resolutionKind ?? ''))
    expect(problems).toEqual([])
    expect('code' in result ? result.code : 0).toBe(0)
  })

  it('states what users need: licence, repository, ESM-only exports with types, engines', () => {
    const { manifest, pkg } = get(name)
    expect(manifest).toMatchObject({
      license: 'MIT',
      type: 'module',
      engines: { node: '>=20.19' },
      repository: {
        type: 'git',
        url: 'git+https://github.com/petstore/petstore.git',
        directory: pkg.importerId,
      },
      homepage: `https://github.com/petstore/petstore/tree/main/${pkg.importerId}#readme`,
      bugs: { url: 'https://github.com/petstore/petstore/issues' },
      keywords: expect.arrayContaining(['pet-adoption-service', 'esm']),
      publishConfig: { access: 'public' },
    })
    // ESM-only, on purpose: no CommonJS entry, and types only through `exports`.
    expect(manifest).not.toHaveProperty('main')
    expect(manifest).not.toHaveProperty('types')
    const exports = manifest.exports as Record<string, unknown>
    expect(exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' })
    // Workspace-only entry points (the server's `internal/*` for the bench, the types' reader
    // as source) are left out by `publishConfig.exports`.
    expect(Object.keys(exports).filter((entry) => /\/(internal|source)(\/|$)/.test(entry))).toEqual(
      [],
    )
  })

  it('depends on caret ranges from the catalog, starting at the version the lockfile pins', () => {
    const { manifest, pkg } = get(name)
    const source = pkg.manifest.dependencies as Record<string, string> | undefined
    const locked = lockfile.importers[pkg.importerId]?.dependencies ?? {}
    for (const [dependency, range] of Object.entries(
      (manifest.dependencies ?? {}) as Record<string, string>,
    )) {
      expect(range, dependency).toMatch(/^\^\d+\.\d+\.\d+$/)
      if (source?.[dependency] === 'workspace:^') {
        const target = packages.find((other) => other.manifest.name === dependency)
        expect(range).toBe(`^${target?.manifest.version}`)
        continue
      }
      expect(source?.[dependency], dependency).toBe('catalog:')
      expect(catalog[dependency], dependency).toBe(range)
      expect(locked[dependency]?.version.replace(/\(.*$/, ''), dependency).toBe(range.slice(1))
    }
    expect(JSON.stringify(manifest)).not.toMatch(/"(workspace|catalog):/)
  })

  it('ships the licence and a README, and no source maps or sources', () => {
    const { files, dir } = get(name)
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']))
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(rootLicense)
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/ESM only/)
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([])
    expect(files.filter((file) => file.startsWith('src/'))).toEqual([])
    expect(readdirSync(dir).sort()).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'dist', 'package.json']),
    )
  })
})

it('@petstore/types carries openapi.json once', () => {
  const { files } = get('@petstore/types')
  expect(files.filter((file) => file.endsWith('openapi.json'))).toEqual([
    'dist/generated/openapi.json',
  ])
})

it('@petstore/server ships the built docs, its bin and the alert rules its README names', () => {
  const { files, dir } = get('@petstore/server')
  expect(files).toEqual(
    expect.arrayContaining(['bin/petstore.js', 'dist/docs/index.html', 'prometheus/alerts.yml']),
  )
  const shipped = readFileSync(join(dir, 'dist', 'docs', 'index.html'))
  const built = readFileSync(join(workspaceRoot, 'packages', 'docs', 'dist', 'index.html'))
  expect(shipped.equals(built), 'dist/docs/index.html is the docs build').toBe(true)
})

/** Installs unpacked tarballs into `dir/node_modules`, and the named workspace dependencies. */
function install(dir: string, names: string[], links: Record<string, string> = {}): void {
  for (const name of names) {
    const target = join(dir, 'node_modules', name)
    mkdirSync(join(target, '..'), { recursive: true })
    cpSync(get(name).dir, target, { recursive: true })
  }
  for (const [name, from] of Object.entries(links)) {
    const target = join(dir, 'node_modules', name)
    mkdirSync(join(target, '..'), { recursive: true })
    symlinkSync(from, target)
  }
}

/** A dependency as the workspace package `importerId` resolves it (pnpm's link). */
const workspaceDependency = (importerId: string, name: string) =>
  join(workspaceRoot, importerId, 'node_modules', name)

describe('a TypeScript consumer of the tarballs, skipLibCheck false', () => {
  let consumer: string

  beforeAll(() => {
    consumer = join(tmp, 'consumer')
    mkdirSync(consumer)
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    )
    install(consumer, ['@petstore/types', '@petstore/client'], {
      'openapi-fetch': workspaceDependency('packages/client', 'openapi-fetch'),
    })
    const readmeExample = /```ts\n([\s\S]*?)```/.exec(
      readFileSync(join(get('@petstore/types').dir, 'README.md'), 'utf8'),
    )?.[1]
    writeFileSync(
      join(consumer, 'index.ts'),
      `${readmeExample}
import { openapiDocument } from '@petstore/types/spec'
import { createPetstoreClient } from '@petstore/client'

export const version: string = openapiDocument.info.version
export const pet: Pet | undefined = undefined
export const draftName: string = draft.name

const client = createPetstoreClient({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey: 'psk' })
export async function addRex(): Promise<number | undefined> {
  const { data } = await client.POST('/pets', { body: { name: 'Rex', categoryId: 1 } })
  return data?.id
}
// @ts-expect-error categoryId is a number
export const wrongBody = () => client.POST('/pets', { body: { name: 'Rex', categoryId: 'one' } })
`,
    )
  })

  const check = async (options: Record<string, unknown>, files = ['index.ts']) => {
    const config = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: 'ES2022',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        ...options,
      },
      files,
    }
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(config))
    return run(process.execPath, [tsc, '-p', consumer], { cwd: consumer }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    )
  }

  it('type-checks under NodeNext', async () => {
    expect(await check({ module: 'NodeNext', moduleResolution: 'NodeNext' })).toBe('')
  })

  it('type-checks under bundler resolution', async () => {
    expect(await check({ module: 'Preserve', moduleResolution: 'bundler' })).toBe('')
  })

  it('would see a JSON import without its attribute in a declaration (TS1543)', async () => {
    const regression = join(consumer, 'node_modules', 'json-without-attribute')
    mkdirSync(regression)
    writeFileSync(
      join(regression, 'package.json'),
      JSON.stringify({
        name: 'json-without-attribute',
        type: 'module',
        exports: { '.': { types: './index.d.ts', default: './index.js' } },
      }),
    )
    writeFileSync(join(regression, 'doc.json'), '{"a":1}')
    writeFileSync(join(regression, 'index.d.ts'), "import doc from './doc.json'\nexport { doc }\n")
    writeFileSync(
      join(consumer, 'regression.ts'),
      "import { doc } from 'json-without-attribute'\nexport const a: number = doc.a\n",
    )
    const output = await check({ module: 'NodeNext', moduleResolution: 'NodeNext' }, [
      'regression.ts',
    ])
    expect(output).toContain('TS1543')
  })
})

describe('the server installed from its tarball', () => {
  let app: string
  let child: ChildProcess | undefined

  afterAll(() => {
    child?.kill('SIGKILL')
  })

  it('serves /v1 and the docs it ships with `petstore serve`, data in the cwd', async () => {
    app = join(tmp, 'app')
    mkdirSync(app)
    const server = get('@petstore/server')
    const runtime = Object.keys(server.manifest.dependencies as Record<string, string>).filter(
      (dependency) => !dependency.startsWith('@petstore/'),
    )
    install(
      app,
      ['@petstore/types', '@petstore/server'],
      Object.fromEntries(
        runtime.map((dependency) => [
          dependency,
          workspaceDependency('packages/server', dependency),
        ]),
      ),
    )
    const bin = join(app, 'node_modules', '@petstore', 'server', 'bin', 'petstore.js')
    child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const started = await firstLine(child, (line) => line.msg?.startsWith('listening on'))
    const docsUrl = String(started.docs)
    expect(docsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs$/)
    const docs = await fetch(docsUrl)
    expect(docs.status).toBe(200)
    expect(await docs.text()).toBe(
      readFileSync(join(workspaceRoot, 'packages', 'docs', 'dist', 'index.html'), 'utf8'),
    )
    expect(existsSync(join(app, 'data', 'petstore.db'))).toBe(true)
    const { stdout: key } = await run(process.execPath, [bin, 'keys', 'create', '--plan', 'free'], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '' },
    })
    const pets = await fetch(`${started.url}/pets`, {
      headers: { authorization: `Bearer ${key.trim()}` },
    })
    expect([pets.status, await pets.json()]).toEqual([200, []])

    const exited = new Promise((resolve) => child?.on('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})

interface LogLine {
  msg?: string
  [field: string]: unknown
}

/** The first JSON log line on stdout that `matches`; rejects when the process exits first. */
function firstLine(child: ChildProcess, matches: (line: LogLine) => unknown): Promise<LogLine> {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stderr?.on('data', (chunk) => {
      err += chunk
    })
    child.stdout?.on('data', (chunk) => {
      out += chunk
      for (const text of out.split('\n').slice(0, -1)) {
        const line = JSON.parse(text) as LogLine
        if (matches(line)) resolve(line)
      }
    })
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}${err}`)))
  })
}
