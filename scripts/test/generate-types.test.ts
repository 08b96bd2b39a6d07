import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderGenerated, staleFiles } from '../src/generate-types.js'

const root = new URL('../../', import.meta.url).pathname
const committed = join(root, 'packages/types/src/generated')

describe('generate-types drift check', () => {
  it('finds the committed generated files current against spec/openapi.yaml', async () => {
    expect(await staleFiles()).toEqual([])
  })

  it('reports both files stale when a description in the spec changes', async () => {
    const work = mkdtempSync(join(tmpdir(), 'petstore-drift-'))
    const spec = join(work, 'openapi.yaml')
    const original = readFileSync(join(root, 'spec/openapi.yaml'), 'utf8')
    const schemas = original.indexOf('\n  schemas:\n')
    const edited =
      original.slice(0, schemas) +
      original
        .slice(schemas)
        .replace(/(\n +description: )(?!\|)/, '$1Reworded for the drift test. ')
    expect(edited).not.toBe(original)
    writeFileSync(spec, edited)
    cpSync(committed, join(work, 'out'), { recursive: true })
    expect(await staleFiles({ specPath: spec, outDir: join(work, 'out') })).toEqual([
      'openapi.json',
      'schema.ts',
    ])
    const fresh = await renderGenerated(spec)
    expect(fresh.get('schema.ts')).toContain('Reworded for the drift test.')
  })
})
