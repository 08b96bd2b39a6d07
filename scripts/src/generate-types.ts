/**
 * Regenerates `@petstore/types` from the canonical spec, or checks that the committed output is
 * current (`--check`, exit 1 with the stale files named). Generated files are never edited by
 * hand: the spec is the single source of truth.
 *
 * Outputs, under `packages/types/src/generated/`:
 * - `openapi.json`: the spec bundled by Redocly (one self-contained document; the server
 *   validates and serializes from it, the docs render it).
 * - `schema.ts`: openapi-typescript's `paths`, `components`, `operations`, plus enum value arrays;
 *   operations below `stable` tagged `@beta` (or `@alpha`, `@experimental`) in their JSDoc.
 * - `facts.ts`: what openapi-typescript does not derive: `Plan` and `planValues` (the keys of
 *   `x-rate-limit-plans`, and which plans carry per-key numbers), `OperationId` and the
 *   `operationIds` table by `METHOD path` (so the client need not import the bundled spec),
 *   `OperationFacts` (defaults and the headers of each success and error response, for the
 *   server's typed binding and the client's typed `meta`), `operationRequestHeaders` (the
 *   request headers each operation declares, for the client's retries),
 *   `operationRequestMediaTypes` (the body types each operation accepts, for the client's
 *   `Content-Type`), `responseHeaderTypes` (each declared response header, for the client's
 *   `meta`) and `ErrorCodeStatus`.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { operationsOf } from '@petstore/types/openapi/source'
import openapiTS, { astToString } from 'openapi-typescript'
import {
  type OperationsSpec,
  renderErrorCodeStatus,
  renderOperationFacts,
  renderRequestHeaders,
  renderRequestMediaTypes,
  renderResponseHeaderTypes,
} from './operation-facts.js'
import type { Json } from './spec-diff/load.js'
import { withoutHeaderSets } from './spec-lint/header-sets.js'
import { tagUnstableOperations } from './stability-tags.js'
import { renderSupportTable } from './support/render.js'
import { describeUnsupported, unsupported } from './support/table.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const require = createRequire(import.meta.url)

export interface GenerateOptions {
  /** The spec to read; defaults to the canonical `spec/openapi.yaml`. */
  specPath?: string
  /** Where the generated files live; defaults to `packages/types/src/generated`. */
  outDir?: string
}

const HEADER = `/**
 * GENERATED from spec/openapi.yaml by scripts/src/generate-types.ts. Do not edit by hand:
 * edit the spec and run \`pnpm generate\`.
 */

`

/**
 * The spec bundled by Redocly, as it writes it: one self-contained document, every `$ref` kept
 * local. The header sets are still in it (`renderGenerated` leaves them out).
 */
export function redoclyBundle(specPath: string): Json {
  const work = mkdtempSync(join(tmpdir(), 'petstore-bundle-'))
  try {
    const bundled = join(work, 'openapi.json')
    const redocly = require.resolve('@redocly/cli/bin/cli.js')
    execFileSync(
      process.execPath,
      [redocly, 'bundle', specPath, '--config', join(root, 'spec/redocly.yaml'), '-o', bundled],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
    )
    return JSON.parse(readFileSync(bundled, 'utf8'))
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * Builds every generated file in memory: file name -> contents. The bundle leaves the header
 * sets out (`withoutHeaderSets`): a device of the source, whose rule the spec lint checks, while
 * every response of the bundle lists its headers in full.
 */
export async function renderGenerated(specPath: string): Promise<Map<string, string>> {
  const document = withoutHeaderSets(redoclyBundle(specPath))
  const refused = unsupported(document)
  if (refused.length > 0) {
    throw new Error(
      `the spec uses what the generator and the service do not support:\n${refused.map((f) => `  ${describeUnsupported(f)}`).join('\n')}`,
    )
  }
  const json = `${JSON.stringify(document, null, 2)}\n`
  const work = mkdtempSync(join(tmpdir(), 'petstore-gen-'))
  try {
    const bundled = join(work, 'openapi.json')
    writeFileSync(bundled, json)
    const ast = await openapiTS(pathToFileURL(bundled), {
      enumValues: true,
      defaultNonNullable: false,
    })
    tagUnstableOperations(ast, document)
    return new Map([
      ['openapi.json', json],
      ['schema.ts', HEADER + astToString(ast)],
      ['facts.ts', HEADER + renderFacts(JSON.parse(json) as SpecFacts)],
    ])
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** The parts of the bundled spec that `facts.ts` is generated from. */
interface SpecFacts extends OperationsSpec {
  'x-rate-limit-plans': Record<string, { perMinute: number | null; perDay: number | null }>
  paths: Record<string, Record<string, { operationId?: string }>>
}

/** `facts.ts`: plans and operation ids as types and runtime tables. */
export function renderFacts(spec: SpecFacts): string {
  const plans = Object.entries(spec['x-rate-limit-plans'])
  const perKey = plans.filter(([, limits]) => limits.perMinute === null).map(([name]) => name)
  const operations: [string, string][] = []
  for (const { path, method, operation } of operationsOf<{ operationId?: string }>(spec)) {
    if (operation.operationId !== undefined)
      operations.push([`${method.toUpperCase()} ${path}`, operation.operationId])
  }
  const union = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(' | ')
  const list = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ')
  return [
    '/** A plan of `x-rate-limit-plans`. */',
    `export type Plan = ${union(plans.map(([name]) => name))}`,
    '',
    '/** Every plan, in spec order. */',
    `export const planValues: readonly Plan[] = [${list(plans.map(([name]) => name))}]`,
    '',
    '/** Plans whose limits are `null` in the spec: each key of theirs carries its own numbers. */',
    `export const perKeyPlanValues: readonly Plan[] = [${list(perKey)}]`,
    '',
    '/** The `operationId` of an operation of the spec. */',
    `export type OperationId = ${union(operations.map(([, id]) => id))}`,
    '',
    '/** `operationId` by `METHOD path`, as the spec writes them. */',
    'export const operationIds: Readonly<Record<string, OperationId>> = {',
    ...operations.map(([route, id]) => `  ${JSON.stringify(route)}: ${JSON.stringify(id)},`),
    '}',
    '',
    ...renderOperationFacts(spec),
    '',
    ...renderRequestHeaders(spec),
    '',
    ...renderRequestMediaTypes(spec),
    '',
    ...renderResponseHeaderTypes(spec),
    '',
    ...renderErrorCodeStatus(spec),
    '',
  ].join('\n')
}

/** Names of the generated files whose committed contents differ from a fresh generation. */
export async function staleFiles(options: GenerateOptions = {}): Promise<string[]> {
  const { specPath, outDir } = withDefaults(options)
  const fresh = await renderGenerated(specPath)
  return [...fresh]
    .filter(([name, contents]) => readOrEmpty(join(outDir, name)) !== contents)
    .map(([name]) => name)
}

export async function writeGenerated(options: GenerateOptions = {}): Promise<string[]> {
  const { specPath, outDir } = withDefaults(options)
  return writeChanged(outDir, await renderGenerated(specPath))
}

/** Writes the rendered files that differ from what `outDir` holds; returns their names. */
export function writeChanged(outDir: string, fresh: Map<string, string>): string[] {
  const changed: string[] = []
  for (const [name, contents] of fresh) {
    const file = join(outDir, name)
    if (readOrEmpty(file) === contents) continue
    writeFileSync(file, contents)
    changed.push(name)
  }
  return changed
}

function withDefaults(options: GenerateOptions): Required<GenerateOptions> {
  return {
    specPath: options.specPath ?? join(root, 'spec/openapi.yaml'),
    outDir: options.outDir ?? join(root, 'packages/types/src/generated'),
  }
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

/** `spec/SUPPORT.md`, rendered from the support table's code (support/render.ts). */
const supportTableFile = join(root, 'spec/SUPPORT.md')

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const supportTable = renderSupportTable()
  if (process.argv.includes('--check')) {
    const stale = await staleFiles()
    if (readOrEmpty(supportTableFile) !== supportTable) stale.push('spec/SUPPORT.md')
    if (stale.length > 0) {
      console.error(
        `Generated files are stale against spec/openapi.yaml: ${stale.join(', ')}.\n` +
          'Run `pnpm generate` and commit the result.',
      )
      process.exit(1)
    }
    console.error('Generated files are current.')
  } else {
    const changed = await writeGenerated()
    if (readOrEmpty(supportTableFile) !== supportTable) {
      writeFileSync(supportTableFile, supportTable)
      changed.push('spec/SUPPORT.md')
    }
    console.error(
      changed.length > 0
        ? `Regenerated: ${changed.join(', ')}`
        : 'Generated files already current.',
    )
  }
}
