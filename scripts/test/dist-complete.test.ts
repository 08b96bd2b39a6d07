/**
 * The `prepack` guard (prepack.ts, on dist-complete.ts). For real: each published package is
 * copied into a throwaway workspace (the real `pnpm-workspace.yaml` and root manifest, `scripts/`
 * and each package's `node_modules` linked) and packed with `pnpm pack` without its `dist/`, with
 * all of it, and (the server) with part of it; the real checkout's `dist/` folders are only read.
 * How imports are followed is pinned on a small package written here.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { missingFiles, refusal } from '../src/dist-complete.js'
import { publishedPackages, workspaceRoot } from '../src/workspace.js'
import { mustRun, run } from './release/processes.js'

let tmp: string
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'petstore-dist-complete-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('missingFiles', () => {
  it('finds nothing missing in the packages turbo built', () => {
    for (const pkg of publishedPackages())
      expect(missingFiles(pkg.dir), pkg.manifest.name).toEqual([])
  })

  it('follows relative imports of .js and .d.ts files, not comments, not other packages', () => {
    const dir = join(tmp, 'imports')
    mkdirSync(join(dir, 'dist'), { recursive: true })
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'imports',
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
        bin: './bin/cli.js',
      }),
    )
    writeFileSync(
      join(dir, 'dist', 'index.js'),
      [
        "import { a } from './a.js'",
        "export * from './b.js'",
        "const lazy = () => import('./lazy.js')",
        "// import './commented.js'",
        "import 'fastify'",
      ].join('\n'),
    )
    writeFileSync(join(dir, 'dist', 'a.js'), "import doc from './doc.json' with { type: 'json' }")
    writeFileSync(
      join(dir, 'dist', 'index.d.ts'),
      "export type { A } from './a.js'\nexport declare const x: import('./types.js').T",
    )
    const byFile = (a: { file: string }, b: { file: string }) => a.file.localeCompare(b.file)
    expect(missingFiles(dir).sort(byFile)).toEqual(
      [
        { file: 'bin/cli.js', neededBy: 'bin["imports"]' },
        { file: 'dist/a.d.ts', neededBy: 'dist/index.d.ts' },
        { file: 'dist/b.js', neededBy: 'dist/index.js' },
        { file: 'dist/doc.json', neededBy: 'dist/a.js' },
        { file: 'dist/lazy.js', neededBy: 'dist/index.js' },
        { file: 'dist/types.d.ts', neededBy: 'dist/index.d.ts' },
      ].sort(byFile),
    )
  })

  it('says in one line which package, which file, what needs it, and what to do', () => {
    expect(
      refusal('@petstore/x', [
        { file: 'dist/index.d.ts', neededBy: 'exports["."]["types"]' },
        { file: 'dist/index.js', neededBy: 'exports["."]["default"]' },
      ]),
    ).toBe(
      '@petstore/x: not packing: dist/index.d.ts is missing (exports["."]["types"] needs it) (and 1 more); run `pnpm build` at the workspace root first',
    )
  })
})

/**
 * A workspace holding copies of the published packages (sources and manifests, no `dist/`), so
 * `pnpm pack` resolves `workspace:` and `catalog:` ranges and runs each `prepack` as it does here.
 */
function copyWorkspace(dest: string): void {
  for (const file of ['pnpm-workspace.yaml', 'package.json']) {
    cpSync(join(workspaceRoot, file), join(dest, file))
  }
  symlinkSync(join(workspaceRoot, 'scripts'), join(dest, 'scripts'))
  for (const pkg of publishedPackages()) {
    const copy = join(dest, pkg.importerId)
    mkdirSync(copy, { recursive: true })
    for (const entry of readdirSync(pkg.dir)) {
      if (entry === 'dist' || entry === 'node_modules') continue
      cpSync(join(pkg.dir, entry), join(copy, entry), { recursive: true })
    }
    symlinkSync(join(pkg.dir, 'node_modules'), join(copy, 'node_modules'))
  }
}

describe('pnpm pack in a copy of the workspace', () => {
  const workspace = () => join(tmp, 'workspace')
  beforeAll(() => copyWorkspace(workspace()))

  describe.each(publishedPackages().map((pkg) => [pkg.manifest.name, pkg] as const))(
    '%s',
    (name, pkg) => {
      const copy = () => join(workspace(), pkg.importerId)
      const pack = (destination: string) =>
        run('pnpm', ['pack', '--pack-destination', join(tmp, destination)], { cwd: copy() })

      it('refuses without dist/, in one line, and writes no tarball', async () => {
        const result = await pack(`refused/${pkg.importerId}`)
        expect(result.code).not.toBe(0)
        const refusals = result.output.split('\n').filter((line) => line.includes('not packing'))
        expect(refusals).toEqual([
          expect.stringContaining(
            `${name}: not packing: dist/index.d.ts is missing (exports["."]["types"] needs it)`,
          ),
        ])
        expect(existsSync(join(tmp, 'refused', pkg.importerId))).toBe(false)
      }, 60_000)

      it('packs the whole dist/ once it is there', async () => {
        cpSync(join(pkg.dir, 'dist'), join(copy(), 'dist'), { recursive: true })
        const result = await pack(`packed/${pkg.importerId}`)
        expect(result.code, result.output).toBe(0)
        const tarball = result.stdout.trim().split('\n').at(-1) ?? ''
        const files = (await mustRun('tar', ['tzf', tarball], { cwd: tmp })).stdout.split('\n')
        expect(files).toEqual(
          expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts']),
        )
      }, 60_000)
    },
  )

  it('refuses @petstore/server when its bin would import a file dist/ lacks', async () => {
    const server = join(workspace(), 'packages', 'server')
    rmSync(join(server, 'dist', 'cli', 'main.js'))
    const result = await run('pnpm', ['pack', '--pack-destination', join(tmp, 'partial')], {
      cwd: server,
    })
    expect(result.code).not.toBe(0)
    expect(result.output).toContain('@petstore/server: not packing: dist/cli/main.js is missing')
  }, 60_000)
})
