/**
 * The Dockerfile's install layers, read in a moment where the image suite takes minutes: before
 * `pnpm install`, the build copies the root manifests and each importer's package.json of the
 * lockfile, and nothing else. The install has to see every package of the workspace; a source
 * file among what it sees would rerun it on every edit.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { workspaceRoot } from '../src/workspace.js'

const dockerfile = readFileSync(join(workspaceRoot, 'Dockerfile'), 'utf8')
const importers = Object.keys(
  (
    parse(readFileSync(join(workspaceRoot, 'pnpm-lock.yaml'), 'utf8')) as {
      importers: Record<string, unknown>
    }
  ).importers,
)

/** Where the build puts a manifest: its own directory, relative to the working directory. */
const dirOf = (file: string) => file.replace(/[^/]*$/, '') || './'

/** The build's instructions, continuation lines joined, each as its words. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
  .map((line) => line.trim().split(/\s+/))

/** The `COPY` instructions from the context (no `--from`) before the first `pnpm install`. */
function copiesBeforeInstall(): { sources: string[]; destination: string }[] {
  const install = instructions.findIndex(
    (words) => words[0] === 'RUN' && words.join(' ').includes('pnpm install'),
  )
  expect(install, 'the Dockerfile has no RUN … pnpm install').toBeGreaterThan(0)
  return instructions
    .slice(0, install)
    .filter((words) => words[0] === 'COPY' && !words.some((word) => word.startsWith('--from')))
    .map((words) => {
      const paths = words.slice(1).filter((word) => !word.startsWith('--'))
      return { sources: paths.slice(0, -1), destination: paths.at(-1) ?? '' }
    })
}

describe('the Dockerfile', () => {
  it("copies the lockfile's manifests before the install, and nothing else", () => {
    const manifests = [
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      ...importers.map((id) => (id === '.' ? 'package.json' : `${id}/package.json`)),
    ].sort()
    const copies = copiesBeforeInstall()
    const copied = copies.flatMap((copy) => copy.sources).sort()
    const missing = manifests.filter((file) => !copied.includes(file))
    expect(
      missing,
      `before its pnpm install, add ${missing.map((file) => `\`COPY ${file} ${dirOf(file)}\``).join(', ')}`,
    ).toEqual([])
    expect(
      copied,
      'only manifests before the install: a source file reruns it on every edit',
    ).toEqual(manifests)
  })

  it('puts each manifest at its own path in the build', () => {
    for (const { sources, destination } of copiesBeforeInstall()) {
      for (const source of sources) expect(destination, `COPY ${source}`).toBe(dirOf(source))
    }
  })
})
