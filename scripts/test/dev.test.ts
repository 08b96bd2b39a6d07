/**
 * `pnpm dev` for real: the loop runs in a copy of the workspace (its sources and installed links;
 * the package store is shared through a `node_modules` link), so edits and regenerated files
 * never touch this checkout. The spec is edited on disk and the running
 * service, the built docs and the loop's output are checked.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  documentedVariables,
  missingVariables,
  nodeProcessesRunning,
  processEnvironment,
} from '../src/documented-env.js'
import { freePort } from '../src/free-port.js'
import { withoutServiceVariables } from '../src/service-env.js'
import { RELEASED_SPEC } from '../src/spec-diff/paths.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const copied = [
  'package.json',
  'pnpm-workspace.yaml',
  'tsconfig.base.json',
  'spec',
  'scripts',
  'packages/types',
  'packages/server',
  'packages/client',
  'packages/docs',
]
/**
 * Not copied: tests and Turbo's logs, which the loop does not read, and build output, which it
 * makes (so the test covers a fresh clone, and never copies a dist that a concurrent build of
 * this checkout is halfway through writing).
 */
const skipped = new Set(['test', '.turbo', 'dist', '.cache'])

/** Bounded and restricted, so that no Spectral rule finds anything and the edit goes through. */
const restricted = "            pattern: '^[A-Za-z0-9 ]*$'"
const newParameter = [
  '        - name: nameContains',
  '          in: query',
  '          required: false',
  '          description: Only pets whose name contains this text (added by the dev-loop test).',
  '          schema:',
  '            type: string',
  '            maxLength: 64',
  restricted,
].join('\n')
const getPet404Example = [
  '              examples:',
  '                notFound:',
  '                  summary: No pet with this id',
  '                  value:',
  '                    code: not_found',
  '                    message: pet 42 does not exist',
  '                    status: 404',
  '',
].join('\n')
const listPetsAnchor = "        - $ref: '#/components/parameters/RequestId'\n"
/** listPets' 200, the first response to list its headers in full, has this one of its set. */
const listPetsRequestId = [
  '            X-Request-Id:',
  "              $ref: '#/components/headers/X-Request-Id'",
  '',
].join('\n')

let work: string
let specPath: string
let dev: ChildProcess
let output = ''
let baseUrl: string
/** The environment the loop is started with: every variable the server's README documents. */
let variables: Record<string, string>

/** Waits for a line of the loop's output matching `pattern`, after `from` characters. */
async function outputMatching(pattern: RegExp, from: number, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const match = output.slice(from).match(pattern)
    if (match) return match[0]
    if (dev.exitCode !== null) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no output matching ${pattern}; the loop printed:\n${output}`)
}

async function servedSpec(): Promise<{ paths: Record<string, Record<string, unknown>> }> {
  const response = await fetch(`${baseUrl}/v1/openapi.json`)
  expect(response.status).toBe(200)
  return (await response.json()) as { paths: Record<string, Record<string, unknown>> }
}

/** `pnpm lint`'s spec step on the copy's spec: what the loop refuses, it fails on. */
async function specLintExit(): Promise<number | undefined> {
  const cli = join(work, 'scripts/src/spec-lint/cli.ts')
  try {
    await run(process.execPath, ['--import', import.meta.resolve('tsx'), cli, specPath], {
      cwd: work,
    })
    return 0
  } catch (error) {
    return (error as { code?: number }).code
  }
}

function listPetsParameterNames(spec: { paths: Record<string, Record<string, unknown>> }) {
  const operation = spec.paths['/pets']?.get as { parameters: { name?: string }[] }
  return operation.parameters.map((parameter) => parameter.name)
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'petstore-dev-'))
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'))
  for (const path of copied) {
    cpSync(join(root, path), join(work, path), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !skipped.has(basename(source)),
    })
  }
  specPath = join(work, 'spec/openapi.yaml')
  // The baseline and changesets spec:diff reads are the test's: the spec as it starts, and none
  // pending, so its summary counts this test's edits whatever the last release was.
  copyFileSync(specPath, join(work, RELEASED_SPEC))
  mkdirSync(join(work, '.changeset'))
  writeFileSync(join(work, '.changeset/README.md'), '# Changesets\n')
  const port = await freePort()
  baseUrl = `http://127.0.0.1:${port}`
  // Those the test does not use are blank, which the server reads as unset.
  const readme = readFileSync(join(root, 'packages/server/README.md'), 'utf8')
  variables = {
    ...Object.fromEntries(documentedVariables(readme).map((name) => [name, ' '])),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    PETSTORE_DB: join(work, 'petstore.db'),
  }
  dev = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(work, 'scripts/src/dev/main.ts')],
    {
      cwd: work,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: withoutServiceVariables(process.env, variables),
    },
  )
  dev.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  dev.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  await outputMatching(/watching spec\//, 0, 180_000)
}, 240_000)

afterAll(() => {
  // The loop's process group: the loop, the service and any build it left running.
  try {
    if (dev.pid !== undefined) process.kill(-dev.pid, 'SIGKILL')
  } catch {
    // Already gone.
  }
  rmSync(work, { recursive: true, force: true })
})

describe('pnpm dev', () => {
  it('starts the service from the workspace it runs in', async () => {
    expect(listPetsParameterNames(await servedSpec())).not.toContain('nameContains')
  })

  it.runIf(process.platform === 'linux')(
    "passes every variable the server's README documents to the service",
    () => {
      expect(Object.keys(variables)).toContain('OTEL_EXPORTER_OTLP_ENDPOINT')
      const servers = nodeProcessesRunning(dev.pid as number, 'dist/server.js')
      expect(servers).toHaveLength(1)
      expect(missingVariables(processEnvironment(servers[0] as number), variables)).toEqual([])
    },
  )

  it('turns a spec edit into a restarted service, rebuilt docs and a spec:diff summary', async () => {
    const from = output.length
    const spec = readFileSync(specPath, 'utf8')
    expect(spec).toContain(listPetsAnchor)
    writeFileSync(
      specPath,
      spec.replace(listPetsAnchor, () => `${listPetsAnchor}${newParameter}\n`),
    )

    const timings = await outputMatching(/.*service restarted.*docs rebuilt.*from the edit.*/, from)
    expect(timings).toMatch(/regenerated types \d+\.\d s/)
    await outputMatching(/spec:diff: 0 breaking, 1 non-breaking change\(s\)/, from)
    await outputMatching(
      /release: spec info\.version \S+ -> at least \S+ \(minor\); changesets needed: minor for .* \(pending: none\)/,
      from,
    )

    expect(output.slice(from)).not.toMatch(/spec lint:/)
    expect(await specLintExit()).toBe(0)
    expect(listPetsParameterNames(await servedSpec())).toContain('nameContains')
    const schema = readFileSync(join(work, 'packages/types/src/generated/schema.ts'), 'utf8')
    expect(schema).toContain('nameContains?: string')
    for (const file of ['index.html', 'openapi.json']) {
      expect(readFileSync(join(work, 'packages/docs/dist', file), 'utf8')).toContain(
        'added by the dev-loop test',
      )
    }
    const docs = await fetch(`${baseUrl}/docs/openapi.json`)
    expect(await docs.text()).toContain('nameContains')
  }, 240_000)

  it.each([
    [
      'a YAML error',
      (spec: string) => spec.replace(/^info:\n/m, 'info:\n  broken: [unclosed\n'),
      /spec invalid, nothing regenerated/,
    ],
    [
      'a lint error',
      (spec: string) =>
        spec.replace(listPetsAnchor, "        - $ref: '#/components/parameters/NoSuchParameter'\n"),
      /spec invalid, nothing regenerated/,
    ],
    [
      'a lint warning',
      (spec: string) => spec.replace(`${restricted}\n`, ''),
      /spec breaks lint rules \(1 warning\), nothing regenerated:\n {2}warning owasp:api4:2023-string-restricted at paths\.\/pets\.get\.parameters\.\d+\.schema: /,
    ],
    [
      'a response without an example',
      (spec: string) => spec.replace(getPet404Example, ''),
      /spec breaks lint rules \(1 error[^)]*\), nothing regenerated:\n( {2}.*\n)* {2}error petstore-response-example at .*: getPet 404 \(application\/json\): no example/,
    ],
    [
      'a response without a header of its set',
      (spec: string) => spec.replace(listPetsRequestId, ''),
      /spec breaks lint rules \(1 error[^)]*\), nothing regenerated:\n( {2}.*\n)* {2}error petstore-header-set at paths\.\/pets\.get\.responses\.200\.headers\.X-Request-Id: GET \/pets 200 \(listPets\): missing header X-Request-Id of set common/,
    ],
  ])(
    'reports %s and keeps the last good service answering',
    async (_name, breakSpec, report) => {
      const good = readFileSync(specPath, 'utf8')
      const generated = readFileSync(
        join(work, 'packages/types/src/generated/openapi.json'),
        'utf8',
      )
      const from = output.length
      const broken = breakSpec(good)
      expect(broken).not.toBe(good)
      writeFileSync(specPath, broken)

      await outputMatching(report, from)
      await outputMatching(/the last good service keeps running/, from)
      expect(await specLintExit()).not.toBe(0)
      expect(output.slice(from)).not.toMatch(/service restarted/)
      expect(listPetsParameterNames(await servedSpec())).toContain('nameContains')
      expect(readFileSync(join(work, 'packages/types/src/generated/openapi.json'), 'utf8')).toBe(
        generated,
      )
      writeFileSync(specPath, good)
      await outputMatching(/regenerated types .* \(no generated file changed\)/, from)
    },
    // Each step is a pass of the loop (lint, generate, build); CI runs other suites beside it.
    240_000,
  )

  it('stops the service when it stops', async () => {
    const exited = new Promise((resolve) => dev.once('exit', resolve))
    dev.kill('SIGTERM')
    await exited
    await expect(fetch(`${baseUrl}/v1/openapi.json`)).rejects.toThrow()
  })
})
