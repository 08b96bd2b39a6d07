import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type RunningPetstore, startPetstore } from '@petstore/server'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const outputDir = `${packageDir}test-output/readme-${process.pid}/`
const readme = readFileSync(`${packageDir}README.md`, 'utf8')
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '')
const files = blocks.map((_, index) => `${outputDir}example-${index + 1}.ts`)

let petstore: RunningPetstore

beforeAll(async () => {
  mkdirSync(outputDir, { recursive: true })
  for (const [index, code] of blocks.entries()) writeFileSync(files[index] ?? '', code)
  petstore = await startPetstore()
  process.env.PETSTORE_URL = `${petstore.url}/v1`
  process.env.PETSTORE_API_KEY = await petstore.issueKey({
    plan: 'enterprise',
    perMinute: 100_000,
    perDay: 1_000_000,
  })
})

afterAll(async () => {
  await petstore?.close()
  rmSync(outputDir, { recursive: true, force: true })
})

describe('README examples', () => {
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6)
  })

  it('type-check against the package source', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      `${packageDir}tsconfig.json`,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )
    const program = ts.createProgram(files, {
      ...config?.options,
      noEmit: true,
      paths: { '@petstore/client': [`${packageDir}src/index.ts`] },
    })
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) =>
      ts.formatDiagnostic(diagnostic, {
        ...ts.sys,
        getCanonicalFileName: (name) => name,
        getNewLine: () => '\n',
      }),
    )
    expect(diagnostics).toEqual([])
    // A whole TypeScript program: seconds, more on a busy machine.
  }, 60_000)

  it.each(files.map((file, index) => [index + 1, file]))(
    'example %i runs against a real server',
    async (_, file) => {
      await import(/* @vite-ignore */ file)
    },
  )
})
