/**
 * Every rule of `pnpm spec:diff` against a pair of small OpenAPI 3.1 documents in
 * `fixtures/spec-diff/<case>/{base,head}.yaml`, asserting the exact classification; then the CLI
 * as `pnpm spec:diff` and `pnpm dev` run it.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { matchesEveryString } from '../src/spec-diff/constraints.js'
import { loadSpec } from '../src/spec-diff/load.js'
import { packagesBuiltFromSpec } from '../src/spec-diff/release-check.js'
import { diffFiles } from '../src/spec-diff/run.js'

const root = new URL('../../', import.meta.url).pathname
const fixtures = new URL('./fixtures/spec-diff/', import.meta.url).pathname
const require = createRequire(import.meta.url)

type Expected = [kind: 'breaking' | 'non-breaking', rule: string, location: string][]

const B = 'breaking'
const N = 'non-breaking'
const body = 'POST /pets request body application/json'
const listed = 'GET /pets response 200 application/json'
const created = 'POST /pets response 201 application/json'

const cases: Record<string, Expected> = {
  'operation-removed': [[B, 'operation-removed', 'POST /pets']],
  'operation-added': [[N, 'operation-added', 'DELETE /pets/{petId}']],
  'operation-id-changed': [[B, 'operation-id-changed', 'POST /pets']],
  'operation-moved': [[B, 'operation-moved', 'POST /pets']],
  'operation-removed-before-sunset': [[B, 'operation-removed-before-sunset', 'GET /pets/{petId}']],
  'operation-removed-after-sunset': [[N, 'operation-removed-after-sunset', 'GET /pets/{petId}']],
  'operation-deprecated': [[N, 'operation-deprecated', 'GET /pets']],
  'sunset-brought-forward': [[B, 'sunset-brought-forward', 'GET /pets/{petId}']],
  'sunset-postponed': [[N, 'sunset-postponed', 'GET /pets/{petId}']],
  'parameter-removed': [[B, 'parameter-removed', 'GET /pets query parameter limit']],
  'required-parameter-added': [
    [B, 'required-parameter-added', 'GET /pets query parameter category'],
  ],
  'optional-parameter-added': [
    [N, 'optional-parameter-added', 'GET /pets query parameter category'],
  ],
  'parameter-became-required': [
    [B, 'parameter-became-required', 'GET /pets query parameter limit'],
  ],
  'request-bound-tightened': [[B, 'bound-tightened', 'GET /pets query parameter limit']],
  'request-bound-relaxed': [[N, 'bound-relaxed', 'GET /pets query parameter limit']],
  'request-property-became-required': [[B, 'property-became-required', `${body}: status`]],
  'request-property-became-optional': [[N, 'property-became-optional', `${body}: name`]],
  'required-property-added': [[B, 'required-property-added', `${body}: categoryId`]],
  'optional-property-added': [[N, 'property-added', `${body}: tag`]],
  'request-property-removed': [[B, 'property-removed', `${body}: status`]],
  // NewPet and Pet both rename name to title: one change each, not a removal and an addition.
  'property-renamed': [
    [B, 'property-renamed', `${listed}: [].name -> title`],
    [B, 'property-renamed', `${body}: name -> title`],
    [B, 'property-renamed', `${created}: name -> title`],
  ],
  // The new required title has name's schema, not the removed weight's: no rename.
  'property-replaced': [
    [B, 'property-removed', `${body}: weight`],
    [B, 'required-property-added', `${body}: title`],
  ],
  'request-enum-value-removed': [[B, 'enum-value-removed', `${body}: status`]],
  'request-enum-value-added': [[N, 'enum-value-added', `${body}: status`]],
  'request-type-narrowed': [[B, 'type-narrowed', `${body}: weight`]],
  'request-type-widened': [[N, 'type-widened', `${body}: weight`]],
  'request-pattern-added': [[B, 'pattern-changed', `${body}: name`]],
  'request-string-bounds-tightened': [
    [B, 'bound-tightened', `${body}: name`],
    [B, 'bound-tightened', `${body}: name`],
    [B, 'format-changed', `${body}: name`],
  ],
  // Pet is the body of both responses, so each change shows at both places.
  'response-property-removed': [
    [B, 'property-removed', `${listed}: [].status`],
    [B, 'property-removed', `${created}: status`],
  ],
  'response-property-added': [
    [N, 'property-added', `${listed}: [].tag`],
    [N, 'property-added', `${created}: tag`],
  ],
  'response-property-became-optional': [
    [B, 'property-became-optional', `${listed}: [].status`],
    [B, 'property-became-optional', `${created}: status`],
  ],
  'response-enum-value-added': [
    [B, 'enum-value-added', `${listed}: [].status`],
    [B, 'enum-value-added', `${created}: status`],
  ],
  'response-enum-value-removed': [
    [N, 'enum-value-removed', `${listed}: [].status`],
    [N, 'enum-value-removed', `${created}: status`],
  ],
  'response-bound-relaxed': [
    [B, 'bound-relaxed', `${listed}: [].name`],
    [B, 'bound-relaxed', `${created}: name`],
  ],
  'response-header-removed': [
    [B, 'response-header-removed', 'GET /pets response 200 header X-Request-Id'],
  ],
  'response-header-added': [
    [N, 'response-header-added', 'GET /pets response 200 header X-Total-Count'],
  ],
  'status-code-changed': [
    [B, 'success-status-removed', 'POST /pets response 201'],
    [B, 'success-status-added', 'POST /pets response 200'],
  ],
  'error-status-added': [[N, 'error-status-added', 'GET /pets response 429']],
  'error-status-removed': [[N, 'error-status-removed', 'GET /pets response 400']],
  'descriptions-ignored': [],
  'refs-resolved': [],
}

const diffCase = (name: string) =>
  diffFiles(join(fixtures, name, 'base.yaml'), join(fixtures, name, 'head.yaml')).changes

describe('spec:diff rules', () => {
  it.each(Object.entries(cases))('%s', (name, expected) => {
    expect(diffCase(name).map((c) => [c.kind, c.rule, c.location])).toEqual(expected)
  })

  it('has a case for every fixture pair, and every pair is valid OpenAPI 3.1', () => {
    expect(readdirSync(fixtures).sort()).toEqual(Object.keys(cases).sort())
    const files = Object.keys(cases).flatMap((name) =>
      ['base', 'head'].map((side) => join(fixtures, name, `${side}.yaml`)),
    )
    const redocly = require.resolve('@redocly/cli/bin/cli.js')
    // Redocly exits 1 when any document has an error (the `minimal` rules include `struct`).
    const run = spawnSync(
      process.execPath,
      [redocly, 'lint', '--extends=minimal', '--format=stylish', ...files],
      { cwd: tmpdir(), encoding: 'utf8' },
    )
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0)
    for (const file of files) expect(loadSpec(file).doc.openapi).toBe('3.1.0')
  })

  it('says why a change breaks, in the client’s terms', () => {
    const [required] = diffCase('request-property-became-required')
    expect(required?.message).toBe('status is now required: requests that omit it are rejected')
    const [widened] = diffCase('response-enum-value-added')
    expect(widened?.message).toBe(
      'enum value(s) "reserved" added: clients that handle every documented value see an unknown one',
    )
    const [early] = diffCase('operation-removed-before-sunset')
    expect(early?.message).toBe('deprecated getPet was removed before its sunset (2999-01-01)')
  })

  it('names a probable rename and the route that breaks no client', () => {
    const [response, request] = diffCase('property-renamed')
    expect(request?.message).toBe(
      'name -> title looks like a rename (same schema, title required): name was removed: ' +
        'requests that send it are rejected. Without breaking clients: add title as optional ' +
        'beside name, mark name deprecated, and remove it after its sunset',
    )
    expect(response?.message).toBe(
      'name -> title looks like a rename (same schema, title required): name was removed: ' +
        'clients reading it get nothing. Without breaking clients: send title beside name, ' +
        'mark name deprecated, and remove it after its sunset',
    )
  })

  it('counts a sunset as passed from the date spec:diff is told it is', async () => {
    const { diffSpecs } = await import('../src/spec-diff/diff.js')
    const base = loadSpec(join(fixtures, 'operation-removed-before-sunset', 'base.yaml')).doc
    const head = loadSpec(join(fixtures, 'operation-removed-before-sunset', 'head.yaml')).doc
    const after = diffSpecs(base, head, { now: new Date('2999-01-02T00:00:00Z') })
    expect(after.map((c) => [c.kind, c.rule])).toEqual([[N, 'operation-removed-after-sunset']])
  })
})

describe('the spec:diff CLI', () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-spec-diff-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))
  const tsx = require.resolve('tsx/cli')
  // No pending changeset, so that the release line does not follow this repository's .changeset/.
  const noChangesets = join(root, 'scripts/test/fixtures/changesets/none/.changeset')
  const cli = (...args: string[]) =>
    spawnSync(
      process.execPath,
      [tsx, 'scripts/src/spec-diff/cli.ts', '--changesets', noChangesets, ...args],
      { cwd: root, encoding: 'utf8' },
    )

  // The edits below are made to the last release, so its version is what the check starts from.
  const released = loadSpec(join(root, 'spec/released/openapi.yaml')).version
  const nextMajor = `${Number(released.split('.')[0]) + 1}.0.0`
  const statusRequired = join(work, 'status-required.yaml')
  writeFileSync(
    statusRequired,
    readFileSync(join(root, 'spec/released/openapi.yaml'), 'utf8').replace(
      'required: [name, categoryId]\n',
      'required: [name, categoryId, status]\n',
    ),
  )

  it('starts with the one-line summary `pnpm dev` shows, against the released baseline', () => {
    const run = cli()
    expect(run.status).toBe(0)
    const [summary, release] = run.stdout.split('\n')
    expect(summary).toMatch(
      /^spec:diff: \d+ breaking, \d+ non-breaking change\(s\) against \d+\.\d+\.\d+ \(spec\/released\/openapi\.yaml\)$/,
    )
    expect(release).toMatch(/^release: /)
  })

  it('reports a breaking edit, exits 0 unless --fail-on-breaking', () => {
    const run = cli('--head', statusRequired)
    expect(run.status).toBe(0)
    expect(run.stdout).toBe(
      [
        `spec:diff: 1 breaking, 0 non-breaking change(s) against ${released} (spec/released/openapi.yaml)`,
        `release: spec info.version ${released} -> at least ${nextMajor} (major); changesets needed: major for ` +
          `${packagesBuiltFromSpec().join(', ')} (pending: none)`,
        '  breaking     property-became-required  POST /pets request body application/json: status',
        '               status is now required: requests that omit it are rejected',
        '',
      ].join('\n'),
    )
    expect(cli('--head', statusRequired, '--fail-on-breaking').status).toBe(1)
    expect(
      cli('--base', statusRequired, '--head', statusRequired, '--fail-on-breaking').status,
    ).toBe(0)
  })

  it('fails with --check-release while a breaking edit lacks its major changesets and version', () => {
    const refused = cli('--head', statusRequired, '--check-release')
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/^release check failed; spec:diff: 1 breaking/)
    expect(refused.stderr).toContain('major changeset')
    expect(refused.stderr).toContain(`spec info.version is ${released}`)

    const major = join(work, `status-required-${nextMajor}.yaml`)
    const bumped = readFileSync(statusRequired, 'utf8').replace(
      `\n  version: ${released}\n`,
      `\n  version: ${nextMajor}\n`,
    )
    expect(bumped).toContain(`\n  version: ${nextMajor}\n`)
    writeFileSync(major, bumped)
    const releasing = spawnSync(
      process.execPath,
      [
        tsx,
        'scripts/src/spec-diff/cli.ts',
        '--head',
        major,
        '--check-release',
        '--changesets',
        join(root, 'scripts/test/fixtures/changesets/major/.changeset'),
      ],
      { cwd: root, encoding: 'utf8' },
    )
    expect([releasing.status, releasing.stderr]).toEqual([0, ''])
  })

  it('prints JSON with --json', () => {
    const report = JSON.parse(cli('--head', statusRequired, '--json').stdout)
    expect(report.summary).toEqual({ breaking: 1, nonBreaking: 0 })
    expect(report.base).toEqual({ file: 'spec/released/openapi.yaml', version: released })
    expect(report.changes[0].rule).toBe('property-became-required')
    expect(report.release).toMatchObject({
      ok: false,
      needed: 'major',
      version: { base: released, head: released, required: nextMajor },
      pending: packagesBuiltFromSpec().map((name) => ({ name, bump: 'none' })),
    })
    expect(report.release.problems).toHaveLength(2)
  })

  it('reports a probable rename in text and JSON', () => {
    const pair = (side: string) => join(fixtures, 'property-renamed', `${side}.yaml`)
    const args = ['--base', pair('base'), '--head', pair('head')]
    const [request] = diffCase('property-renamed').filter((c) => c.location.startsWith(body))
    const text = cli(...args).stdout.split('\n')
    expect(text[0]).toMatch(/^spec:diff: 3 breaking, 0 non-breaking change\(s\) against 1\.0\.0 /)
    expect(text.slice(2, 4)).toEqual([
      `  breaking     property-renamed  ${listed}: [].name -> title`,
      expect.stringMatching(/^ {15}name -> title looks like a rename .*after its sunset$/),
    ])
    expect(text).toContain(`               ${request?.message}`)
    const report = JSON.parse(cli(...args, '--json').stdout)
    expect(report.summary).toEqual({ breaking: 3, nonBreaking: 0 })
    expect(report.changes).toContainEqual({
      kind: 'breaking',
      rule: 'property-renamed',
      location: `${body}: name -> title`,
      message: request?.message,
      oasdiff: [],
    })
  })

  it('carries the one oasdiff rule id of each change beside ours in JSON', () => {
    const report = JSON.parse(cli('--head', statusRequired, '--format', 'json').stdout)
    // NewPet's status declares a default, which oasdiff names apart.
    expect(report.changes[0]).toMatchObject({
      rule: 'property-became-required',
      oasdiff: ['request-property-became-required-with-default'],
    })
  })

  it('names the side that changed: a request enum value is a request-side id', () => {
    const pair = (name: string, side: string) => join(fixtures, name, `${side}.yaml`)
    const ids = (name: string) =>
      JSON.parse(
        cli('--base', pair(name, 'base'), '--head', pair(name, 'head'), '--json').stdout,
      ).changes.map((c: { rule: string; oasdiff: string[] }) => `${c.rule} ${c.oasdiff.join(' ')}`)
    expect(ids('request-enum-value-added')).toEqual([
      'enum-value-added request-property-enum-value-added',
    ])
    expect(ids('response-enum-value-added')).toEqual([
      'enum-value-added response-property-enum-value-added',
      'enum-value-added response-property-enum-value-added',
    ])
  })

  it('prints a Markdown table per operation with --format markdown', () => {
    const run = cli('--head', statusRequired, '--format', 'markdown')
    expect(run.status).toBe(0)
    const lines = run.stdout.split('\n')
    expect(lines[0]).toContain(
      `### spec:diff: 1 breaking, 0 non-breaking change(s) against ${released} `,
    )
    expect(lines[2]).toContain(
      `**Release: spec info.version ${released} -> at least ${nextMajor} (major)`,
    )
    expect(lines.slice(4)).toEqual([
      '#### `POST /pets`',
      '',
      '| | change | where | why | what a client must do |',
      '| --- | --- | --- | --- | --- |',
      '| **breaking** | `property-became-required` | request body application/json: status | ' +
        'status is now required: requests that omit it are rejected | send it |',
      '',
      '',
    ])
  })

  it('annotates the spec line of each change with --format github', () => {
    const run = cli('--head', statusRequired, '--format', 'github')
    expect(run.status).toBe(0)
    const [summary, annotation] = run.stdout.split('\n')
    expect(summary).toMatch(/^::notice title=spec%3Adiff::spec:diff: 1 breaking/)
    const line = Number(/,line=(\d+),/.exec(annotation ?? '')?.[1])
    // The `status` property of NewPet, which the request body's $ref points at.
    const spec = readFileSync(statusRequired, 'utf8').split('\n')
    expect(spec[line - 1]).toBe('        status:')
    expect(
      spec
        .slice(0, line)
        .reverse()
        .find((l) => /^ {4}\w+:$/.test(l)),
    ).toBe('    NewPet:')
    expect(annotation).toBe(
      `::error file=${statusRequired.replaceAll(':', '%3A').replaceAll(',', '%2C')},line=${line},` +
        'title=spec%3Adiff breaking property-became-required::POST /pets request body ' +
        'application/json: status: status is now required: requests that omit it are rejected. ' +
        'Clients must: send it.',
    )
    expect(cli('--format', 'yaml').stderr).toContain('--format yaml: expected one of text, json')
  })

  it('still prints the diff when it cannot tell what a release needs', () => {
    const broken = join(root, 'scripts/test/fixtures/changesets/broken/.changeset')
    const run = cli('--head', statusRequired, '--changesets', broken)
    expect(run.status).toBe(0)
    expect(run.stdout.split('\n').slice(0, 3)).toEqual([
      `spec:diff: 1 breaking, 0 non-breaking change(s) against ${released} (spec/released/openapi.yaml)`,
      expect.stringMatching(/^release: cannot tell what it needs: .*broken\.md: could not parse/),
      '  breaking     property-became-required  POST /pets request body application/json: status',
    ])
  })

  it('exits 2 naming the file it cannot read', () => {
    const missing = join(work, 'missing.yaml')
    const run = cli('--head', missing)
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(`spec:diff: ${missing}: cannot read the spec`)
    const notOpenApi = join(work, 'not-openapi.yaml')
    writeFileSync(notOpenApi, 'name: just yaml\n')
    expect(cli('--head', notOpenApi).stderr).toContain('not an OpenAPI document')
  })

  it('is the root `spec:diff` script', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(scripts['spec:diff']).toBe('tsx scripts/src/spec-diff/cli.ts')
    expect(
      execFileSync('git', ['ls-files', 'spec/released/openapi.yaml'], {
        cwd: root,
        encoding: 'utf8',
      }),
    ).not.toBe('')
  })
})

describe('an unconstraining pattern', () => {
  it('is one every string matches, never `^$` (the empty string alone)', () => {
    const every = ['', '^', '$', '.*', '^.*', '.*$', '^.*$']
    const some = ['^$', '^[a-z]+$', '.+', '^.', 'a*']
    expect(every.filter(matchesEveryString)).toEqual(every)
    expect(some.filter(matchesEveryString)).toEqual([])
  })
})
