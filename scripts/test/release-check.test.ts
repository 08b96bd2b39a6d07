/**
 * The release check on throwaway copies (a baseline and an edited spec in a temp dir) with the
 * `.changeset/` folders of `fixtures/changesets`, both ways, then on this repository as it
 * stands: CI fails while a spec change lacks its changesets (major for a breaking change, at
 * least minor for an addition) or its `info.version` bump.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CURRENT_SPEC, RELEASED_SPEC, releasedSpecOf } from '../src/spec-diff/paths.js'
import { readReleaseDates, refreshBaseline } from '../src/spec-diff/release-baseline.js'
import {
  checkRelease,
  describeCheck,
  packagesBuiltFromSpec,
  releaseLine,
} from '../src/spec-diff/release-check.js'
import { nextVersion, versionBump } from '../src/spec-diff/spec-version.js'

const root = new URL('../../', import.meta.url).pathname
const released = readFileSync(join(root, RELEASED_SPEC), 'utf8')
/** The first release, which the edits below are written against: a released spec never changes. */
const firstRelease = readFileSync(join(root, releasedSpecOf('1.0.0')), 'utf8')
const fixtures = join(root, 'scripts/test/fixtures')
const PACKAGES = ['@petstore/types', '@petstore/client', '@petstore/server']

const makeStatusRequired = (spec: string) =>
  replaceOnce(spec, 'required: [name, categoryId]\n', 'required: [name, categoryId, status]\n')
const addOptionalTag = (spec: string) =>
  replaceOnce(
    spec,
    "        status:\n          $ref: '#/components/schemas/PetStatus'\n          default: available\n",
    "        status:\n          $ref: '#/components/schemas/PetStatus'\n          default: available\n        tag:\n          type: string\n          maxLength: 32\n",
  )
const setVersion = (version: string) => (spec: string) =>
  replaceOnce(spec, '\n  version: 1.0.0\n', `\n  version: ${version}\n`)

function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from))
    throw new Error(`the baseline no longer contains ${JSON.stringify(from)}`)
  return text.replace(from, to)
}

/** A `.changeset/` folder: `none`, `minor`, `patch`, `major` (each for all three), and mixes. */
const changesets = (name: string) => join(fixtures, 'changesets', name, '.changeset')

describe('release check on temp copies', () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-release-check-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))
  let count = 0

  function check(edits: ((spec: string) => string)[], changesetFixture: string) {
    const dir = join(work, String(count++))
    mkdirSync(dir)
    const baseFile = join(dir, 'released.yaml')
    const headFile = join(dir, 'openapi.yaml')
    writeFileSync(baseFile, firstRelease)
    writeFileSync(
      headFile,
      edits.reduce((spec, edit) => edit(spec), firstRelease),
    )
    return checkRelease({
      baseFile,
      headFile,
      changesetDir: changesets(changesetFixture),
      packages: PACKAGES,
    })
  }

  it('fails a breaking edit without major changesets, naming the packages and the rule', () => {
    const result = check([makeStatusRequired], 'minor')
    expect(result.ok).toBe(false)
    expect(result.needed).toBe('major')
    expect(result.problems).toEqual([
      '1 breaking spec change(s) (property-became-required at POST /pets request body application/json: status) ' +
        'but no pending major changeset for @petstore/types, @petstore/client, @petstore/server: ' +
        'run `pnpm changeset`, choose major for each and say what clients must change.',
      'spec info.version is 1.0.0, but breaking changes need a major bump from 1.0.0 (2.0.0).',
    ])
    expect(describeCheck(result).split('\n')[0]).toBe(
      'release check failed; spec:diff: 1 breaking, 0 non-breaking change(s) against 1.0.0 (' +
        `${result.diff.base.file})`,
    )
  })

  it('passes the same edit with a major changeset for each package and info.version 2.0.0', () => {
    const result = check([makeStatusRequired, setVersion('2.0.0')], 'major')
    expect(result.problems).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('asks a breaking edit to an alpha operation for a minor release only (x-stability-level)', () => {
    const alpha = (spec: string) =>
      replaceOnce(
        spec,
        '      operationId: createPet\n',
        '      operationId: createPet\n      x-stability-level: alpha\n',
      )
    const dir = join(work, String(count++))
    mkdirSync(dir)
    const baseFile = join(dir, 'released.yaml')
    const headFile = join(dir, 'openapi.yaml')
    writeFileSync(baseFile, alpha(firstRelease))
    writeFileSync(headFile, setVersion('1.1.0')(makeStatusRequired(alpha(firstRelease))))
    const result = checkRelease({
      baseFile,
      headFile,
      changesetDir: changesets('minor'),
      packages: PACKAGES,
    })
    expect(result.diff.changes).toMatchObject([
      {
        kind: 'non-breaking',
        rule: 'property-became-required',
        allowedBy: 'x-stability-level: alpha',
      },
    ])
    expect(result).toMatchObject({ ok: true, needed: 'minor', problems: [] })
  })

  it('names the one package whose major changeset is missing', () => {
    const result = check([makeStatusRequired, setVersion('2.0.0')], 'major-except-client')
    expect(result.problems).toHaveLength(1)
    expect(result.problems[0]).toContain('no pending major changeset for @petstore/client:')
  })

  it('fails major changesets when info.version does not move to a new major', () => {
    const result = check([makeStatusRequired, setVersion('1.1.0')], 'major')
    expect(result.problems).toEqual([
      'spec info.version is 1.1.0, but breaking changes need a major bump from 1.0.0 (2.0.0).',
    ])
  })

  it('asks a non-breaking addition for a minor changeset of each package and a minor info.version bump', () => {
    const result = check([addOptionalTag], 'none')
    expect(result.needed).toBe('minor')
    expect(result.problems).toEqual([
      '1 non-breaking spec change(s) (property-added at POST /pets request body application/json: tag) ' +
        'but no pending changeset of at least minor for @petstore/types, @petstore/client, @petstore/server: ' +
        'run `pnpm changeset`, choose minor for each and say what clients can now do.',
      'spec info.version is 1.0.0, but non-breaking additions need at least a minor bump from 1.0.0 (1.1.0).',
    ])
    const bumped = check([addOptionalTag, setVersion('1.1.0')], 'minor')
    expect(bumped.diff.changes.map((c) => [c.kind, c.rule])).toEqual([
      ['non-breaking', 'property-added'],
    ])
    expect(bumped.problems).toEqual([])
    expect(check([addOptionalTag, setVersion('2.0.0')], 'major').ok).toBe(true)
  })

  it('counts a patch changeset as too little for an addition, naming only the packages short of minor', () => {
    expect(check([addOptionalTag, setVersion('1.1.0')], 'patch').problems).toEqual([
      expect.stringContaining(
        'no pending changeset of at least minor for @petstore/types, @petstore/client, @petstore/server:',
      ),
    ])
    expect(check([addOptionalTag, setVersion('1.1.0')], 'minor-except-server').problems).toEqual([
      expect.stringContaining('no pending changeset of at least minor for @petstore/server:'),
    ])
  })

  it('asks an added operation (the spec-diff fixture) for minor changesets too', () => {
    const fixture = join(fixtures, 'spec-diff', 'operation-added')
    const result = checkRelease({
      baseFile: join(fixture, 'base.yaml'),
      headFile: join(fixture, 'head.yaml'),
      changesetDir: changesets('none'),
      packages: PACKAGES,
    })
    expect(result.diff.changes.map((c) => [c.kind, c.rule])).toEqual([
      ['non-breaking', 'operation-added'],
    ])
    expect(result.problems[0]).toBe(
      '1 non-breaking spec change(s) (operation-added at DELETE /pets/{petId}) but no pending changeset of ' +
        'at least minor for @petstore/types, @petstore/client, @petstore/server: ' +
        'run `pnpm changeset`, choose minor for each and say what clients can now do.',
    )
    expect(releaseLine(result)).toBe(
      'release: spec info.version 1.0.0 -> at least 1.1.0 (minor); changesets needed: minor for ' +
        '@petstore/types, @petstore/client, @petstore/server (pending: none)',
    )
  })

  it('says on one line what a release needs and what is pending', () => {
    expect(releaseLine(check([], 'broken'))).toBe(
      'release: no spec change, so no info.version bump or changeset needed (1.0.0)',
    )
    expect(releaseLine(check([makeStatusRequired], 'major-except-client'))).toBe(
      'release: spec info.version 1.0.0 -> at least 2.0.0 (major); changesets needed: major for ' +
        '@petstore/types, @petstore/client, @petstore/server ' +
        '(pending: major for @petstore/types, @petstore/server; minor for @petstore/client)',
    )
  })

  it('refuses an info.version that goes backwards', () => {
    expect(check([setVersion('0.9.0')], 'none').problems).toEqual([
      'spec info.version went backwards: 1.0.0 -> 0.9.0.',
    ])
  })

  it('refuses a changeset Changesets itself could not parse, naming the file', () => {
    expect(() => check([makeStatusRequired, setVersion('2.0.0')], 'broken')).toThrow(
      /broken\.md: could not parse changeset - missing or invalid frontmatter/,
    )
  })
})

describe('release check on this repository', () => {
  it('passes: the spec, its baseline, info.version and the pending changesets agree', () => {
    const result = checkRelease({
      baseFile: join(root, RELEASED_SPEC),
      headFile: join(root, CURRENT_SPEC),
      changesetDir: join(root, '.changeset'),
      packages: packagesBuiltFromSpec(),
    })
    expect(result.ok, describeCheck(result)).toBe(true)
  })

  it('counts every published package as built from the spec', () => {
    expect(packagesBuiltFromSpec()).toEqual([
      '@petstore/client',
      '@petstore/server',
      '@petstore/types',
    ])
  })
})

describe('the baseline and info.version', () => {
  it('moves with `pnpm version-packages`, after `changeset version`', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(scripts['version-packages']).toBe(
      'changeset version && tsx scripts/src/spec-diff/release-baseline.ts',
    )
    const copy = mkdtempSync(join(tmpdir(), 'petstore-baseline-'))
    try {
      mkdirSync(join(copy, 'spec'))
      writeFileSync(join(copy, CURRENT_SPEC), setVersion('2.0.0')(firstRelease))
      refreshBaseline(copy, new Date('2027-03-04T05:06:07Z'))
      expect(readFileSync(join(copy, RELEASED_SPEC), 'utf8')).toContain('\n  version: 2.0.0\n')
      expect(readFileSync(join(copy, releasedSpecOf('2.0.0')), 'utf8')).toBe(
        readFileSync(join(copy, CURRENT_SPEC), 'utf8'),
      )
      refreshBaseline(copy, new Date('2027-05-01T00:00:00Z'))
      writeFileSync(join(copy, CURRENT_SPEC), setVersion('2.1.0')(firstRelease))
      refreshBaseline(copy, new Date('2027-06-07T00:00:00Z'))
      expect(readReleaseDates(copy)).toEqual({ '2.0.0': '2027-03-04', '2.1.0': '2027-06-07' })
      expect(readFileSync(join(copy, RELEASED_SPEC), 'utf8')).toContain('\n  version: 2.1.0\n')
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })

  it('keeps every release: the baseline is the newest versioned spec, and each has its day', () => {
    const dates = readReleaseDates()
    for (const version of Object.keys(dates)) {
      expect(existsSync(join(root, releasedSpecOf(version))), version).toBe(true)
    }
    const newest = Object.keys(dates).sort((a, b) => (versionBump(a, b) === 'backwards' ? 1 : -1))
    expect(readFileSync(join(root, releasedSpecOf(newest.at(-1) ?? '')), 'utf8')).toBe(released)
  })

  it('compares versions as semver bumps', () => {
    expect(versionBump('1.0.0', '2.0.0')).toBe('major')
    expect(versionBump('1.0.0', '1.2.0')).toBe('minor')
    expect(versionBump('1.0.0', '1.0.1')).toBe('patch')
    expect(versionBump('1.2.3', '1.2.3')).toBe('none')
    expect(versionBump('1.2.3', '1.10.0')).toBe('minor')
    expect(versionBump('2.0.0', '1.9.9')).toBe('backwards')
    expect(nextVersion('1.4.2', 'major')).toBe('2.0.0')
    expect(() => versionBump('1.0', '1.0.0')).toThrow('info.version "1.0" is not semver')
  })
})
