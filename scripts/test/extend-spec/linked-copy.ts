/**
 * A copy of the workspace to edit, sharing this checkout's installed dependencies: each package's
 * `node_modules` links to the same installed packages, except the workspace's own packages, which
 * link to their copies. An install would take longer than everything the test then does, and the
 * copy must compile against its own regenerated `@petstore/types`, not this checkout's.
 */
import { lstatSync, mkdirSync, readdirSync, realpathSync, symlinkSync } from 'node:fs'
import { join, relative } from 'node:path'
import { copyWorkingTree } from '../release/workspace.js'

export async function linkedCopy(root: string, dest: string): Promise<void> {
  await copyWorkingTree(root, dest)
  symlinkSync(join(root, 'node_modules'), join(dest, 'node_modules'))
  const importers = ['scripts', ...readdirSync(join(root, 'packages')).map((p) => `packages/${p}`)]
  for (const importer of importers) {
    linkModules(root, dest, join(importer, 'node_modules'))
  }
}

/** Recreates `dir` (relative to the workspace) in `dest`, entry by entry, scopes included. */
function linkModules(root: string, dest: string, dir: string): void {
  let entries: string[]
  try {
    entries = readdirSync(join(root, dir))
  } catch {
    return
  }
  mkdirSync(join(dest, dir), { recursive: true })
  for (const entry of entries) {
    const from = join(root, dir, entry)
    if (entry.startsWith('@') && !lstatSync(from).isSymbolicLink()) {
      linkModules(root, dest, join(dir, entry))
      continue
    }
    const target = lstatSync(from).isSymbolicLink() ? realpathSync(from) : from
    const inWorkspace = relative(root, target)
    const own = !inWorkspace.startsWith('..') && !inWorkspace.split('/').includes('node_modules')
    symlinkSync(own ? join(dest, inWorkspace) : target, join(dest, dir, entry))
  }
}
