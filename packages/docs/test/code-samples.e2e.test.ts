/**
 * Every published code sample works: each curl command and each TypeScript program (type-checked
 * against @petstore/client, then run) gets its documented success status from a real server.
 * The samples are taken as the docs show them, with only the server URL pointed at the test one.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type RunningPetstore, startPetstore } from '@petstore/server'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyVariable, curlLabel, typescriptLabel, withCodeSamples } from '../src/code-samples.js'
import { listOperations, type OperationEntry, resolve } from '../src/openapi.js'
import { outputDir, spec } from './helpers.js'

const run = promisify(execFile)
const packageDir = fileURLToPath(new URL('../', import.meta.url))
const publishedServer = spec.servers?.[0]?.url as string

/** Creation first, so that the pet the other samples read (their example id) exists. */
const operations = listOperations(withCodeSamples(spec)).sort(
  (a, b) => Number(b.method === 'post') - Number(a.method === 'post'),
)

function sample(entry: OperationEntry, label: string): string {
  const found = entry.operation['x-codeSamples']?.find((s) => s.label === label)
  if (!found) throw new Error(`${entry.operation.operationId} has no ${label} sample`)
  expect(found.source).toContain(publishedServer)
  return found.source
}

function successStatus(entry: OperationEntry): number {
  const status = Object.keys(entry.operation.responses ?? {}).find((code) => /^2\d\d$/.test(code))
  return Number(status)
}

/**
 * What a sample prints: the first text in its success example, or `undefined` without a body. A
 * body without an example fails naming the response, as `pnpm lint`'s example rule does.
 */
function expectedOutput(entry: OperationEntry): string {
  const status = successStatus(entry)
  const name = `${entry.operation.operationId} ${status} (application/json)`
  const response = resolve(spec, entry.operation.responses?.[String(status)] ?? {}) as {
    content?: Record<string, { examples?: Record<string, { value?: unknown }> }>
  }
  const content = response.content?.['application/json']
  if (content === undefined) return 'undefined'
  const first = Object.values(content.examples ?? {})[0]
  const value = first === undefined ? undefined : resolve(spec, first).value
  if (value === undefined) {
    throw new Error(
      `${name}: no example to compare the sample's output with: add one under \`examples\``,
    )
  }
  const text = JSON.stringify(value).match(/"[^"]+":"([^"]+)"/)
  if (!text?.[1]) throw new Error(`${name}: no text in its example`)
  return text[1]
}

let petstore: RunningPetstore
let env: NodeJS.ProcessEnv
let samplesDir: string

beforeAll(async () => {
  petstore = await startPetstore()
  env = { ...process.env, [apiKeyVariable]: await petstore.issueKey({ plan: 'pro' }) }
  samplesDir = await mkdtemp(join(outputDir, 'samples-'))
})

afterAll(async () => {
  await petstore?.close()
  if (samplesDir) await rm(samplesDir, { recursive: true, force: true })
})

function pointedAtTestServer(source: string): string {
  return source.replaceAll(publishedServer, `${petstore.url}/v1`)
}

describe('curl samples', () => {
  it.each(operations.map((entry) => [entry.operation.operationId, entry] as const))(
    '%s gets its success status',
    async (_id, entry) => {
      const command = `${pointedAtTestServer(sample(entry, curlLabel))} --write-out '\\n%{http_code}'`
      const { stdout } = await run('bash', ['-c', command], { env })
      const lines = stdout.trimEnd().split('\n')
      const status = Number(lines.pop())
      const text = lines.join('\n')
      expect({ status, body: text === '' ? undefined : JSON.parse(text) }).toMatchObject({
        status: successStatus(entry),
      })
    },
  )
})

describe('TypeScript samples', () => {
  it('type-check against @petstore/client and run without error', async () => {
    const files: [OperationEntry, string][] = []
    for (const entry of operations) {
      const file = join(samplesDir, `${entry.operation.operationId}.ts`)
      await writeFile(file, pointedAtTestServer(sample(entry, typescriptLabel)))
      files.push([entry, file])
    }

    const program = ts.createProgram(
      files.map(([, file]) => file),
      {
        strict: true,
        noUncheckedIndexedAccess: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: ['node'],
        skipLibCheck: true,
        noEmit: true,
      },
    )
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(diagnostics).toEqual([])

    for (const [entry, file] of files) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], {
        cwd: packageDir,
        env,
      })
      expect(stdout, entry.operation.operationId).toContain(expectedOutput(entry))
    }
  })
})
