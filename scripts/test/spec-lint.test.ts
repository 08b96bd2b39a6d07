/**
 * The spec lint `pnpm lint` runs (Spectral with `spec/spectral.yaml`, then our own rules, the
 * plain-YAML and header-set rules tested in files of their own): the spec has no finding, the
 * example rule names the operation and status of a response without an example, and the CLI
 * prints each finding on one line and fails.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import type { Json } from '../src/spec-diff/load.js'
import { missingExamples } from '../src/spec-lint/examples.js'
import { formatFinding } from '../src/spec-lint/finding.js'
import { lintSpec } from '../src/spec-lint/lint.js'
import { at, root, ruleset, spec, specCopy } from './canonical-spec.js'

const withoutGetPet404Example = () => {
  const doc = specCopy()
  delete at(doc, 'paths', '/pets/{petId}', 'get', 'responses', '404', 'content', 'application/json')
    .examples
  return doc
}

describe('the spec lint', { timeout: 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-spec-lint-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('finds nothing in spec/openapi.yaml: no Spectral finding, none of our rules', async () => {
    expect((await lintSpec({ spec, ruleset })).map(formatFinding)).toEqual([])
  })

  it('names the operation, status and media type of a response without an example', () => {
    expect(missingExamples(withoutGetPet404Example())).toEqual([
      {
        code: 'petstore-response-example',
        severity: 'error',
        path: ['paths', '/pets/{petId}', 'get', 'responses', '404', 'content', 'application/json'],
        message:
          "getPet 404 (application/json): no example: add one under `examples` in the response's content",
      },
    ])
  })

  it('names every operation that refers to a shared response without an example', () => {
    const doc = specCopy()
    const ref = '#/components/responses/BadRequest'
    delete at(doc, 'components', 'responses', 'BadRequest', 'content', 'application/json').examples
    const referring = Object.values(at(doc, 'paths')).flatMap((item) =>
      Object.values(item as Json).flatMap((operation) =>
        Object.entries(at(operation, 'responses') ?? {})
          .filter(([, response]) => (response as Json).$ref === ref)
          .map(([status]) => `${at(operation, 'operationId')} ${status}`),
      ),
    )
    expect(referring.length).toBeGreaterThan(1)
    // Each operation once; the lint walks methods in its own order, not the document's.
    expect(
      missingExamples(doc)
        .map((f) => f.message)
        .sort(),
    ).toEqual(
      referring
        .map(
          (name) =>
            `${name} (application/json): no example: add one under \`examples\` in ${ref} content`,
        )
        .sort(),
    )
  })

  it('asks every component schema for an example', () => {
    const doc = specCopy()
    const schemas = at(doc, 'components', 'schemas')
    for (const schema of Object.values(schemas)) delete (schema as Json).examples
    expect(missingExamples(doc).map(formatFinding)).toEqual(
      Object.keys(schemas).map(
        (name) =>
          `error petstore-schema-example at components.schemas.${name}: schema ${name}: no example: add \`examples\` (a list of values) to it`,
      ),
    )
  })

  it('is `pnpm lint`: prints each finding on one line and exits 1', () => {
    const scripts = JSON.parse(readFileSync(join(root, 'scripts/package.json'), 'utf8')).scripts
    expect(scripts.lint).toContain('pnpm run lint:spec')
    expect(scripts['lint:spec']).toBe('tsx src/spec-lint/cli.ts')
    const file = join(work, 'openapi.yaml')
    writeFileSync(file, stringify(withoutGetPet404Example()))
    const tsx = createRequire(import.meta.url).resolve('tsx/cli')
    const run = spawnSync(process.execPath, [tsx, 'src/spec-lint/cli.ts', file], {
      cwd: join(root, 'scripts'),
      encoding: 'utf8',
    })
    expect(run.stdout.split('\n')).toEqual([
      `spec lint: 1 error in ${file} (Spectral with spec/spectral.yaml, and our rules: plain YAML, header sets, examples, the support table)`,
      '  error petstore-response-example at paths./pets/{petId}.get.responses.404.content.application/json: ' +
        "getPet 404 (application/json): no example: add one under `examples` in the response's content",
      '',
    ])
    expect(run.status).toBe(1)
  })

  it('runs again when the spec changes: Turbo hashes spec/ for every package’s lint', () => {
    const turbo = (dir: string) => JSON.parse(readFileSync(join(root, dir, 'turbo.json'), 'utf8'))
    expect(turbo('.').tasks.lint.inputs).toContain('$TURBO_ROOT$/spec/**')
    // A package may add inputs to lint, but only on top of the root's (which hash spec/).
    const own = turbo('scripts').tasks.lint?.inputs ?? ['$TURBO_EXTENDS$']
    expect(own, 'scripts/turbo.json: lint inputs must keep "$TURBO_EXTENDS$"').toContain(
      '$TURBO_EXTENDS$',
    )
  })
})
