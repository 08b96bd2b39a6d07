/**
 * `pnpm format` in a copy of the workspace: it rewrites what `pnpm lint` checks, and nothing else.
 * Biome would reformat YAML (the spec's quotes) and Markdown (tables padded past the line width),
 * so the root biome.json leaves both out, and spec/ whatever it holds: the copy gets misformatted
 * Markdown, YAML and TypeScript in every package and at the root, then `pnpm format` and the root
 * invocation `biome check --write .` run, and every spec/, Markdown and YAML file is unchanged.
 */
import { execFile } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceRoot } from '../src/workspace.js'
import { cleanEnv } from './release/processes.js'

const run = promisify(execFile)

interface Member {
  name: string
  /** Relative to the copy's root. */
  dir: string
  scripts: Record<string, string>
}

const planted = {
  'planted.md': '| a | b |\n|---|---|\n| one | two |\n',
  'planted.yaml': 'list:\n    - \'single\'\n    -   "double"\n',
  'planted.ts': 'export const planted = {a:1,  b: "two"}\n',
}
const plantedTsFormatted = "export const planted = { a: 1, b: 'two' }\n"

/** Turbo's children inherit nothing from the `pnpm test` run this test is part of. */
const env = () =>
  Object.fromEntries(Object.entries(cleanEnv()).filter(([name]) => !name.startsWith('TURBO_')))

/** What Biome must not touch. */
const left = (path: string) => path.startsWith('spec/') || /\.(md|ya?ml)$/.test(path)

let copy: string
let members: Member[]
let before: Map<string, string>

/** The file list `biome check --verbose` prints ("Files processed"), as paths from its folder. */
function biomeFiles(output: string, prefix = ''): Set<string> {
  const line = new RegExp(`^${prefix.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s+- (\\S+)$`)
  return new Set(output.split('\n').flatMap((l) => line.exec(l)?.slice(1) ?? []))
}

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'petstore-format-'))
  const listed = (
    await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: workspaceRoot,
    })
  ).stdout
    .split('\0')
    .filter((path) => path !== '' && existsSync(join(workspaceRoot, path)))
  for (const path of listed) {
    mkdirSync(dirname(join(copy, path)), { recursive: true })
    cpSync(join(workspaceRoot, path), join(copy, path))
  }
  const { stdout } = await run('pnpm', ['ls', '-r', '--depth', '-1', '--json'], {
    cwd: copy,
    env: env(),
  })
  members = (JSON.parse(stdout) as { name: string; path: string }[]).map(({ name, path }) => ({
    name,
    dir: relative(copy, path),
    scripts: JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')).scripts ?? {},
  }))
  for (const { dir } of members) {
    symlinkSync(join(workspaceRoot, dir, 'node_modules'), join(copy, dir, 'node_modules'))
    for (const [name, text] of Object.entries(planted)) writeFileSync(join(copy, dir, name), text)
  }
  const files = [
    ...listed,
    ...members.flatMap(({ dir }) => Object.keys(planted).map((name) => join(dir, name))),
  ]
  before = new Map(
    files.filter(left).map((path) => [path, readFileSync(join(copy, path), 'utf8')] as const),
  )
  await run('pnpm', ['format'], { cwd: copy, env: env() })
  await run(join(workspaceRoot, 'node_modules/.bin/biome'), ['check', '--write', '.'], {
    cwd: copy,
    env: env(),
  })
}, 180_000)

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true })
})

describe('pnpm format', () => {
  it('is Turbo running each package’s format leaf: lint’s Biome step with --write', () => {
    const root = JSON.parse(readFileSync(join(workspaceRoot, 'package.json'), 'utf8'))
    expect(root.scripts.format).toMatch(/^turbo run format( |$)/)
    const packages = members.filter(({ dir }) => dir !== '')
    expect(packages.length).toBeGreaterThan(1)
    for (const { name, scripts } of packages) {
      expect(scripts.lint, name).toMatch(/^pnpm run lint:biome( && |$)/)
      expect(scripts.format, name).toBe('pnpm run lint:biome --write')
    }
  })

  it('leaves spec/, Markdown and YAML byte for byte, at the root too', () => {
    expect(before.has('spec/openapi.yaml')).toBe(true)
    expect(before.has('README.md')).toBe(true)
    const after = new Map(
      [...before.keys()].map((path) => [path, readFileSync(join(copy, path), 'utf8')]),
    )
    expect(after).toEqual(before)
  })

  it('formats the code of every package', () => {
    for (const { dir } of members.filter(({ dir }) => dir !== '')) {
      expect(readFileSync(join(copy, dir, 'planted.ts'), 'utf8'), dir).toBe(plantedTsFormatted)
    }
  })

  // Two pnpm runs per package, one after another: 30 s and more on a loaded 2-core machine,
  // with the docs' browser tests running beside it.
  it('covers exactly the files `pnpm lint` checks', async () => {
    for (const { name, dir } of members.filter(({ dir }) => dir !== '')) {
      const lint = await run('pnpm', ['run', 'lint:biome', '--verbose'], {
        cwd: join(copy, dir),
        env: env(),
      })
      const linted = biomeFiles(lint.stdout)
      expect(linted.size, name).toBeGreaterThan(0)
      // The leaf `pnpm format` runs in each package (the first test holds the root to them), run
      // directly: Turbo's relayed output dropped a line of a package's list now and then in CI.
      const format = await run('pnpm', ['run', 'format', '--verbose'], {
        cwd: join(copy, dir),
        env: env(),
      })
      expect(biomeFiles(format.stdout), name).toEqual(linted)
    }
  }, 120_000)
})
