/**
 * How often spec:diff agrees with oasdiff's own checker tests on "breaking or not". Reads a
 * checkout of oasdiff (never committed here): each test of `checker/*_test.go` that diffs two
 * files of its data folder, and what the test expects of that pair: the rule ids it asserts, at
 * the level the test names or else their level in `checker/rules.go`. oasdiff calls a pair
 * breaking when its tests expect a change of level WARN or ERR (what its
 * CheckBackwardCompatibility returns) and safe when they expect only INFO changes or none. A test
 * of a configuration other than the default, or one that edits a document in code, is left out.
 * spec:diff calls a pair breaking when it reports a breaking change; where every test of a pair
 * runs one check (a single-check config), only our changes about what that check reads count
 * (`subjectOfId`).
 *
 *   pnpm --filter @petstore/scripts spec-diff:agreement <oasdiff checkout> [--all] [--json]
 *
 * Prints the count that agree and each pair that does not (`--all`: every pair).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { parse } from 'yaml'
import type { Change } from './change.js'
import { diffSpecs } from './diff.js'
import { loadSpec } from './load.js'
import { oasdiffIdsOf } from './oasdiff-ids.js'
import { POLICY_FIXTURES, type PolicyFixture } from './parity.js'

type Level = 'ERR' | 'WARN' | 'INFO'

/** One base/revision pair and what oasdiff's tests expect of it. */
export interface OasdiffPair {
  base: string
  revision: string
  /** The tests that diff this pair. */
  tests: string[]
  /** The rule ids the tests expect, with their level. */
  expected: { id: string; level: Level }[]
  /** The rule ids of the checks the tests run; `undefined` when one of them runs every check. */
  scope: Set<string> | undefined
  breaking: boolean
}

export interface Verdict {
  pair: OasdiffPair
  /** spec:diff's verdict; `undefined` when it cannot read a document. */
  breaking: boolean | undefined
  changes: Change[]
  /** Breaking changes of ours that the pair's tests do not look at (another check's). */
  unexamined: Change[]
  error?: string
}

/** What reading the tests needs. */
interface Reading {
  root: string
  /** Rule ids by Go constant: RequestBodyAnyOfAddedId -> `request-body-any-of-added`. */
  ids: Map<string, string>
  levels: Map<string, Level>
  /** The rule ids each check reports: RequestPropertyAnyOfUpdatedCheck -> [...]. */
  checks: Map<string, string[]>
  /** The tests' data folder helpers: deprecationFile -> `deprecation`. */
  dataDirs: Map<string, string>
}

function read(root: string): Reading {
  const checker = join(root, 'checker')
  const ids = new Map<string, string>()
  for (const file of readdirSync(checker).filter((f) => f.endsWith('.go'))) {
    const text = readFileSync(join(checker, file), 'utf8')
    for (const [, name, id] of text.matchAll(/\b(\w+Id)\s*=\s*"([^"]+)"/g)) {
      ids.set(name as string, id as string)
    }
  }
  const levels = new Map<string, Level>()
  const checks = new Map<string, string[]>()
  const rules = readFileSync(join(checker, 'rules.go'), 'utf8')
  for (const [, name, level, check] of rules.matchAll(
    /newBackwardCompatibilityRule\(\s*(\w+),\s*(ERR|WARN|INFO),\s*(\w+)/g,
  )) {
    const id = ids.get(name as string)
    if (id === undefined) continue
    levels.set(id, level as Level)
    checks.set(check as string, [...(checks.get(check as string) ?? []), id])
  }
  const helpers = readFileSync(join(checker, 'helpers_test.go'), 'utf8')
  const dataDirs = new Map(
    [...helpers.matchAll(/(\w+)\s*=\s*dataFileFn\("([^"]+)"\)/g)].map(
      ([, fn, dir]) => [fn as string, dir as string] as const,
    ),
  )
  return { root, ids, levels, checks, dataDirs }
}

/** `func TestX(t *testing.T) { ... }` bodies of a Go test file. */
function testFunctions(text: string): { name: string; body: string }[] {
  const starts = [...text.matchAll(/^func (Test\w+)\(t \*testing\.T\) \{$/gm)]
  return starts.map((match, i) => {
    const from = (match.index ?? 0) + match[0].length
    const end = text.indexOf('\n}\n', from)
    const next = starts[i + 1]?.index ?? text.length
    return { name: match[1] as string, body: text.slice(from, end === -1 ? next : end) }
  })
}

/** Assertions that expect a rule id to be reported. */
const EXPECTS = [
  /\bId:\s*checker\.(\w+Id)\b/g,
  /\brequire(?:Single)?Change\(t, \w+, checker\.(\w+Id)\)/g,
  /require\.True\(t, containsId\(\w+, checker\.(\w+Id)\)/g,
  /require\.Equal\(t, checker\.(\w+Id), \w+(?:\[\d+\])?\.(?:GetId\(\)|Id)/g,
  /require\.Equal\(t, \[\]string\{checker\.(\w+Id)\}/g,
  /require\.Contains\(t, \w+, checker\.(\w+Id)\)/g,
]
/** An assertion that the checks found nothing, or that a rule did not fire. */
const NOTHING =
  /require\.(?:Empty\(t, \w+\)|Len\(t, \w+, 0\)|False\(t, containsId)|requireNoChange\(|require\.NotContains\(/

interface Found {
  base: string
  revision: string
  expected: Map<string, Level>
  scope: Set<string> | undefined
}

/**
 * The pairs one test diffs, each with what the test expects: the text from one
 * diff.GetWithOperationsSourcesMap(config, a, b) to the next belongs to that pair.
 */
function pairsOfTest(body: string, reading: Reading): Found[] {
  const files = new Map<string, string>()
  const opened = /(\w+), err :?= (?:open|load\.NewSpecInfo\(\w+, load\.NewSource)\("([^"]+)"/g
  for (const [, variable, file] of body.matchAll(opened)) {
    files.set(variable as string, resolve(reading.root, 'checker', file as string))
  }
  for (const [, variable, fn, name] of body.matchAll(/(\w+), err :?= open\((\w+)\("([^"]+)"\)/g)) {
    const dir = reading.dataDirs.get(fn as string)
    if (dir !== undefined)
      files.set(variable as string, join(reading.root, 'data', dir, name as string))
  }
  const diffs = [...body.matchAll(/diff\.GetWithOperationsSourcesMap\([^,]+, (\w+), (\w+)\)/g)]
  return diffs.flatMap((call, i): Found[] => {
    const base = files.get(call[1] as string)
    const revision = files.get(call[2] as string)
    if (base === undefined || revision === undefined || base === revision) return []
    const before = body.slice(0, call.index)
    // A test that edits a loaded document before diffing it does not diff the files.
    if (new RegExp(`\\b(${call[1]}|${call[2]})\\.Spec\\.`).test(before)) return []
    const segment = body.slice(call.index, diffs[i + 1]?.index ?? body.length)
    const expected = new Map<string, Level>()
    for (const pattern of EXPECTS) {
      for (const match of segment.matchAll(pattern)) {
        const id = reading.ids.get(match[1] as string)
        if (id === undefined) continue
        // A level written in the expected change (`Level: checker.INFO`) wins over rules.go's.
        const literal = segment.slice(match.index, segment.indexOf('}', match.index))
        const named = /Level:\s*checker\.(ERR|WARN|INFO)/.exec(literal)?.[1] as Level | undefined
        expected.set(id, named ?? reading.levels.get(id) ?? 'INFO')
      }
    }
    if (expected.size === 0 && !NOTHING.test(segment)) return []
    // The checks it runs: its own config, or the config `c` it built before.
    const built = before.lastIndexOf('c :=')
    const configs = `${built === -1 ? '' : before.slice(built)}${segment}`
    // A test of another configuration than oasdiff's default (`checker.WithDeprecation(...)`,
    // severity levels, attributes) does not say what oasdiff reports by default.
    if (/checker\.With\w+\(/.test(configs)) return []
    const single = [...configs.matchAll(/singleCheckConfig\(checker\.(\w+)/g)].map(
      (m) => m[1] as string,
    )
    const scope =
      /allChecksConfig\(/.test(configs) || single.length === 0
        ? undefined
        : new Set(single.flatMap((check) => reading.checks.get(check) ?? []))
    return [{ base, revision, expected, scope }]
  })
}

/** Every pair of oasdiff's checker tests, with the union of what the tests of each expect. */
export function oasdiffPairs(root: string): OasdiffPair[] {
  const reading = read(root)
  const pairs = new Map<string, OasdiffPair>()
  const checker = join(root, 'checker')
  const tests = readdirSync(checker).filter((f) => f.endsWith('_test.go'))
  for (const file of tests.sort()) {
    for (const { name, body } of testFunctions(readFileSync(join(checker, file), 'utf8'))) {
      for (const found of pairsOfTest(body, reading)) {
        const key = `${found.base}\n${found.revision}`
        const pair: OasdiffPair = pairs.get(key) ?? {
          base: found.base,
          revision: found.revision,
          tests: [],
          expected: [],
          scope: new Set(),
          breaking: false,
        }
        pair.tests.push(name)
        for (const [id, level] of found.expected) {
          if (!pair.expected.some((e) => e.id === id)) pair.expected.push({ id, level })
        }
        pair.scope =
          pair.scope === undefined || found.scope === undefined
            ? undefined
            : new Set([...pair.scope, ...found.scope])
        pair.breaking = pair.expected.some((e) => e.level !== 'INFO')
        pairs.set(key, pair)
      }
    }
  }
  return [...pairs.values()]
}

/**
 * What a change is about, as oasdiff's ids and our changes both say it: a place (a parameter, a
 * request body, a response, ...) and, for parameters and media types, whether one came or went.
 * A check of oasdiff reads a few of these, so a test that runs one check says nothing of changes
 * about the others.
 */
function subjectOfId(id: string): string {
  const place = placeOf(id, {
    security: /security/,
    parameter: /parameter|header-property/,
    'request body': /request/,
    'response header': /response-header/,
    response: /response/,
  })
  if (place === 'parameter' && /^new-.*parameter/.test(id)) return 'parameter added'
  if (place === 'parameter' && /^request-parameter-removed/.test(id)) return 'parameter removed'
  return /media-type/.test(id) ? `${place} media type` : place
}

function subjectOfChange({ location, rule }: Change): string {
  const [where = ''] = location.split(': ')
  const place = placeOf(where, {
    security: / security$/,
    parameter: / (query|path|header|cookie) parameter /,
    'request body': / request body/,
    'response header': / response \S+ header /,
    response: / response /,
  })
  if (/^(required|optional)-parameter-added$/.test(rule)) return 'parameter added'
  if (/^parameter-removed/.test(rule)) return 'parameter removed'
  return /media-type/.test(rule) ? `${place} media type` : place
}

const placeOf = (text: string, places: Record<string, RegExp>): string =>
  Object.entries(places).find(([, pattern]) => pattern.test(text))?.[0] ?? 'operation'

/** spec:diff's verdict on each pair; `now` decides which sunsets have passed. */
export function judge(pairs: OasdiffPair[], now = new Date()): Verdict[] {
  return pairs.map((pair) => {
    let changes: Change[]
    try {
      changes = diffSpecs(loadSpec(pair.base).doc, loadSpec(pair.revision).doc, { now })
    } catch (error) {
      const message = (error as Error).message
      return { pair, breaking: undefined, changes: [], unexamined: [], error: message }
    }
    const read =
      pair.scope && new Set([...pair.scope, ...pair.expected.map((e) => e.id)].map(subjectOfId))
    const examined = (change: Change) => read === undefined || read.has(subjectOfChange(change))
    const breaking = changes.filter((c) => c.kind === 'breaking')
    return {
      pair,
      breaking: breaking.some(examined),
      changes,
      unexamined: breaking.filter((c) => !examined(c)),
    }
  })
}

const short = (file: string) => file.slice(file.indexOf('/data/') + 1)
const verdict = (breaking: boolean | undefined) =>
  breaking === undefined ? 'unreadable' : breaking ? 'breaking' : 'safe'

/** The policy (`oasdiff-policies.yaml`) that names one of the pair's tests, if one does. */
function policyOf(pair: OasdiffPair, policies: Record<string, PolicyFixture>): string | undefined {
  return Object.entries(policies).find(([, p]) => p.tests.some((t) => pair.tests.includes(t)))?.[0]
}

function describe(v: Verdict, policies: Record<string, PolicyFixture>): string {
  const theirs = v.pair.expected.map((e) => `${e.id} (${e.level})`).join(', ') || 'nothing'
  const ours = v.changes.map((c) => {
    const aside = v.unexamined.includes(c) ? ', where the test does not look' : ''
    return `${c.kind} ${c.rule} [${oasdiffIdsOf(c).join(' ')}${aside}]`
  })
  const lines = [
    `${short(v.pair.base)} -> ${short(v.pair.revision)} (${v.pair.tests.join(', ')})`,
    `  oasdiff: ${verdict(v.pair.breaking)}: ${theirs}`,
    `  spec:diff: ${verdict(v.breaking)}: ${v.error ?? (ours.join('; ') || 'nothing')}`,
  ]
  if (v.breaking !== v.pair.breaking) {
    lines.push(`  policy: ${policyOf(v.pair, policies) ?? 'none (unexplained)'}`)
  }
  return lines.join('\n')
}

function main(): void {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
    },
  })
  const [root] = positionals
  if (root === undefined) throw new Error('usage: oasdiff-agreement.ts <oasdiff checkout>')
  const verdicts = judge(oasdiffPairs(resolve(root)))
  const policies: Record<string, PolicyFixture> = parse(readFileSync(POLICY_FIXTURES, 'utf8'))
  const agreeing = verdicts.filter((v) => v.breaking === v.pair.breaking)
  const differing = verdicts.filter((v) => v.breaking !== v.pair.breaking)
  if (values.json) {
    const rows = verdicts.map((v) => ({
      base: short(v.pair.base),
      revision: short(v.pair.revision),
      tests: v.pair.tests,
      oasdiff: { breaking: v.pair.breaking, ids: v.pair.expected },
      specDiff: {
        breaking: v.breaking,
        changes: v.changes.map((c) => ({ kind: c.kind, rule: c.rule, oasdiff: oasdiffIdsOf(c) })),
      },
    }))
    const report = { agree: agreeing.length, of: verdicts.length, rows }
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return
  }
  const count = (test: (v: Verdict) => boolean) => differing.filter(test).length
  const expected = verdicts.flatMap((v) => v.pair.expected.map((e) => [v, e.id] as const))
  const named = expected.filter(([v, id]) => v.changes.some((c) => oasdiffIdsOf(c).includes(id)))
  const lines = [
    `spec:diff agrees with oasdiff's checker tests on ${agreeing.length} of ${verdicts.length} pairs`,
    `  and names ${named.length} of the ${expected.length} rule ids they expect`,
    `  oasdiff breaking, spec:diff safe: ${count((v) => v.pair.breaking && v.breaking === false)}`,
    `  oasdiff safe, spec:diff breaking: ${count((v) => !v.pair.breaking && v.breaking === true)}`,
    `  spec:diff cannot read: ${count((v) => v.breaking === undefined)}`,
    `  explained by a policy of OASDIFF.md: ${count((v) => policyOf(v.pair, policies) !== undefined)}`,
    '',
    ...(values.all ? verdicts : differing).map((v) => describe(v, policies)),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main()
  } catch (error) {
    process.stderr.write(`spec-diff:agreement: ${(error as Error).message}\n`)
    process.exitCode = 2
  }
}
