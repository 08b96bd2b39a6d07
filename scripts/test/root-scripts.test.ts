/**
 * The root scripts that check the workspace (a Turbo task that writes nothing: typecheck, lint,
 * format, test) report every package: Turbo stops at the first failing task unless told to
 * `--continue`, and a run that names one broken package hides the next. It still exits non-zero.
 * (`--continue=dependencies-successful` skips only what depends on a failed task, e.g. the
 * typecheck of a package whose dependency did not build.)
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { workspaceRoot } from '../src/workspace.js'

interface TurboTask {
  outputs?: string[]
  cache?: boolean
  persistent?: boolean
}

const read = (file: string) => JSON.parse(readFileSync(join(workspaceRoot, file), 'utf8'))
const tasks = read('turbo.json').tasks as Record<string, TurboTask>
const scripts = read('package.json').scripts as Record<string, string>

/** A task whose result is its exit code and log, not files that later tasks build on. */
const checks = new Set(
  Object.entries(tasks)
    .filter(([, task]) => task.persistent !== true)
    .filter(([, task]) => (task.outputs ?? []).length === 0)
    .map(([name]) => name),
)

/** `turbo run a b --flag` as its tasks and flags; undefined for anything else. */
function turboRun(script: string): { tasks: string[]; flags: string[] } | undefined {
  const match = /^turbo run ([^&|;>]+)$/.exec(script)
  if (match === null) return undefined
  const words = (match[1] ?? '').trim().split(/\s+/)
  return {
    tasks: words.filter((word) => !word.startsWith('-')),
    flags: words.filter((word) => word.startsWith('-')),
  }
}

it('runs every check across all packages, failures included', () => {
  const checking = Object.entries(scripts).flatMap(([name, script]) => {
    const run = turboRun(script)
    return run?.tasks.every((task) => checks.has(task)) ? [[name, run]] : []
  }) as [string, { flags: string[] }][]
  expect(checking.map(([name]) => name)).toEqual(
    expect.arrayContaining(['typecheck', 'lint', 'format', 'test']),
  )
  for (const [name, run] of checking) {
    expect(
      run.flags.filter((flag) => /^--continue(=|$)/.test(flag)),
      name,
    ).toHaveLength(1)
    expect(run.flags, name).not.toContain('--continue=never')
  }
})

it('regenerates and rebuilds what the other packages import of @petstore/types', () => {
  // A targeted `vitest run` right after `pnpm generate` reads @petstore/types' dist/, not its
  // sources: without the build it would test the spec before the edit.
  // (scripts/test/extend-spec.test.ts reads the new types from dist/ after `pnpm generate`.)
  const run = turboRun(scripts.generate as string)
  expect(run?.tasks.sort()).toEqual(['build', 'generate'])
  expect(run?.flags).toEqual(['--filter=@petstore/types'])
})
