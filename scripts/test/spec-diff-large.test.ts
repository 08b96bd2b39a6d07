/**
 * spec:diff on a large generated spec (1,000 operations, 2,000 schemas) against a copy with one
 * change finds that change, where each use of the schema shows it, and nothing else. Its speed is
 * measured by `pnpm bench --spec-diff`, not asserted here.
 */
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { diffSpecs } from '../src/spec-diff/diff.js'
import { LARGE_SPEC, largeSpec, withOneChange } from '../src/spec-diff/large-spec.js'
import { resolveRefs } from '../src/spec-diff/load.js'
import { operationsOf } from '../src/spec-diff/model.js'

const root = new URL('../../', import.meta.url).pathname

describe('spec:diff on a large spec', () => {
  const base = largeSpec()

  it('generates the size it says', () => {
    expect(operationsOf(base).size).toBe(LARGE_SPEC.operations)
    const { schemas } = base.components as { schemas: object }
    expect(Object.keys(schemas)).toHaveLength(LARGE_SPEC.schemas)
  })

  it('finds the one change and nothing else', () => {
    const changes = diffSpecs(resolveRefs(base), resolveRefs(withOneChange(base)))
    expect(changes.map((c) => [c.kind, c.rule, c.location])).toEqual([
      [
        'breaking',
        'property-became-required',
        'PUT /resources0/{id} request body application/json: count',
      ],
      [
        'non-breaking',
        'property-became-required',
        'GET /resources0/{id} response 200 application/json: child.count',
      ],
      [
        'non-breaking',
        'property-became-required',
        'PUT /resources0/{id} response 200 application/json: count',
      ],
    ])
  })

  it('is what the bench script times, and it prints the size beside the time', () => {
    const tsx = createRequire(import.meta.url).resolve('tsx/cli')
    const run = spawnSync(
      process.execPath,
      [tsx, 'scripts/src/spec-diff/bench.ts', '--runs', '1'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    )
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({
      ...LARGE_SPEC,
      changes: 3,
      runsMs: [expect.any(Number)],
    })
  })
})
