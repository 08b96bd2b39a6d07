/** What an edited file asks the dev loop to redo. */
import { existsSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import type { Workspace } from './workspace.js'

/**
 * - `spec`: regenerate the types, then everything that reads them;
 * - `types`: a hand-written source of `@petstore/types`;
 * - `server`: refresh its dist and restart the service;
 * - `client`: rebuild the client's dist (nothing running reads it, consumers do);
 * - `docs`: rebuild the docs.
 */
export type Change = 'spec' | 'types' | 'server' | 'client' | 'docs'

/** The folders watched, and the change an edit under each means. */
export function watchedFolders(ws: Workspace): [string, Change][] {
  return [
    [ws.specDir, 'spec'],
    [join(ws.typesDir, 'src'), 'types'],
    [join(ws.serverDir, 'src'), 'server'],
    [join(ws.clientDir, 'src'), 'client'],
    [join(ws.docsDir, 'src'), 'docs'],
    [join(ws.docsDir, 'scripts'), 'docs'],
  ]
}

/** Editor droppings: swap, backup and lock files, vim's `4913` write probe. */
const scratchName = /(^\.|~$|\.sw[a-p]$|\.tmp$|^\d+$)/

/** Folders the loop or the package manager writes: watching them would loop, or waste. */
export function isOutputFolder(ws: Workspace, dir: string): boolean {
  if (!relative(ws.generatedDir, dir).startsWith('..')) return true
  const parts = relative(ws.root, dir).split(sep)
  return parts.includes('node_modules') || parts.includes('dist')
}

/** Whether an event for `file` is an edit worth a cycle. */
export function isSourceEdit(ws: Workspace, file: string): boolean {
  if (isOutputFolder(ws, file) || isOutputFolder(ws, dirname(file))) return false
  return !scratchName.test(basename(file))
}

/**
 * The edited files, workspace-relative, for the log. Editors and `sed -i` write a temporary
 * file and rename it over the real one, and the events may name only the temporary file: when
 * no named file is left, their folders are named instead.
 */
export function editedNames(root: string, files: Iterable<string>): string {
  const all = [...files]
  const present = all.filter((file) => existsSync(file))
  const named =
    present.length > 0
      ? present.map((file) => relative(root, file))
      : all.map((file) => `${relative(root, dirname(file))}/`)
  return [...new Set(named)].join(', ')
}
