/**
 * No false break on the edits a team makes: the adoption flow (store orders at `beta`, pet writes,
 * four new error codes, ETag and If-Match, the CORS header as a pattern) applied to a model of the
 * released spec (`fixtures/spec-diff-adoption/`) is a minor release. The new error codes reach
 * every error response of the operations already released, and the CORS header every response:
 * both are reported, each with why it needs no major.
 */
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isErrorStatus } from '@petstore/types/openapi/source'
import { describe, expect, it } from 'vitest'
import { loadSpec } from '../src/spec-diff/load.js'
import { operationsOf } from '../src/spec-diff/model.js'
import { checkRelease } from '../src/spec-diff/release-check.js'
import { BROWSER_HEADER } from '../src/spec-diff/response-headers.js'
import { ERROR_VALUES_OPEN } from '../src/spec-diff/responses.js'
import { diffFiles } from '../src/spec-diff/run.js'

const fixtures = new URL('./fixtures/spec-diff-adoption/', import.meta.url).pathname
const base = join(fixtures, 'base.yaml')
const head = join(fixtures, 'head.yaml')
const noChangesets = new URL('./fixtures/changesets/none/.changeset', import.meta.url).pathname
const changes = diffFiles(base, head).changes
const released = operationsOf(loadSpec(base).doc)
const edited = operationsOf(loadSpec(head).doc)

describe('the adoption flow', () => {
  it('reports nothing breaking, and asks for a minor release', () => {
    expect(changes.filter((c) => c.kind === 'breaking')).toEqual([])
    const check = checkRelease({
      baseFile: base,
      headFile: head,
      changesetDir: noChangesets,
      packages: ['@petstore/types'],
    })
    expect(check.needed).toBe('minor')
  })

  it('adds each new operation, the store orders at beta', () => {
    const added = [...edited.values()].filter((op) => !released.has(op.key))
    expect(added.map((op) => op.id).sort()).toEqual([
      'deletePet',
      'getOrder',
      'listOrders',
      'placeOrder',
      'updateOrder',
      'updatePet',
    ])
    const reported = changes.filter((c) => c.rule === 'operation-added').map((c) => c.location)
    expect(reported.sort()).toEqual(added.map((op) => op.label).sort())
    const orders = added.filter((op) => op.label.includes('/store/orders'))
    expect(orders.map((op) => op.op['x-stability-level'])).toEqual(orders.map(() => 'beta'))
  })

  it('lets the new error codes reach every released error response without a major', () => {
    const expected = [...released.values()].flatMap(({ label, op }) =>
      Object.keys(op.responses as object)
        .filter(isErrorStatus)
        .map((status) => `${label} response ${status} application/json: code`),
    )
    expect(expected.length).toBeGreaterThan(0)
    const codes = changes.filter((c) => c.rule === 'enum-value-added')
    expect(codes.map((c) => c.location).sort()).toEqual(expected.sort())
    for (const code of codes) expect(code).toMatchObject({ allowedBy: ERROR_VALUES_OPEN })
  })

  it('lets the CORS header become a pattern without a major', () => {
    const cors = changes.filter((c) => c.location.includes(' header Access-Control-Expose-Headers'))
    expect(cors.map((c) => c.rule)).toContain('enum-removed')
    for (const change of cors.filter((c) => c.rule === 'enum-removed')) {
      expect(change.allowedBy).toBe(BROWSER_HEADER)
    }
  })

  it('sends an ETag on the released Pet responses', () => {
    expect(
      changes.filter((c) => c.rule === 'response-header-added').map((c) => c.location),
    ).toEqual(['POST /pets response 201 header ETag', 'GET /pets/{petId} response 200 header ETag'])
  })

  it('calls the way back breaking, so the fixture exercises the rules', () => {
    const back = diffFiles(head, base).changes.filter((c) => c.kind === 'breaking')
    expect(back.map((c) => c.rule)).toContain('operation-removed')
    expect(back.map((c) => c.rule)).toContain('response-header-removed')
  })

  it('is valid OpenAPI 3.1, both sides', () => {
    const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js')
    const run = spawnSync(
      process.execPath,
      [redocly, 'lint', '--extends=minimal', '--format=stylish', base, head],
      { cwd: tmpdir(), encoding: 'utf8' },
    )
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0)
  })
})
