/**
 * Watches the spec and the packages' sources with `node:fs` and hands over edits in batches: a
 * save is often several events (editors write, rename, touch), and one cycle should serve them.
 *
 * One non-recursive watcher per directory: Node 20's `recursive: true` on Linux stops reporting
 * a file once it has been replaced by a rename (as `sed -i` and many editors save), while a
 * directory's own watch keeps seeing every write. New directories get a watcher when they appear.
 */
import { type FSWatcher, readdirSync, statSync, watch } from 'node:fs'
import { join } from 'node:path'
import { type Change, isOutputFolder, isSourceEdit, watchedFolders } from './changes.js'
import type { Workspace } from './workspace.js'

export interface EditBatch {
  changes: Set<Change>
  /** Absolute paths of the edited files. */
  files: Set<string>
  /** `performance.now()` of the batch's first event: cycle times count from the write. */
  since: number
}

const quietMs = 80

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** Starts watching; returns a function that stops. */
export function watchWorkspace(ws: Workspace, onBatch: (batch: EditBatch) => void): () => void {
  let batch: EditBatch | undefined
  let timer: NodeJS.Timeout | undefined
  const watchers = new Map<string, FSWatcher>()

  const edited = (file: string, change: Change) => {
    batch ??= { changes: new Set(), files: new Set(), since: performance.now() }
    batch.changes.add(change)
    batch.files.add(file)
    clearTimeout(timer)
    timer = setTimeout(() => {
      const ready = batch
      batch = undefined
      if (ready) onBatch(ready)
    }, quietMs)
  }

  const watchTree = (dir: string, change: Change) => {
    if (watchers.has(dir) || !isDirectory(dir) || isOutputFolder(ws, dir)) return
    const watcher = watch(dir, (_event, name) => {
      const file = name === null ? dir : join(dir, name.toString())
      if (!isSourceEdit(ws, file)) return
      if (isDirectory(file)) watchTree(file, change)
      edited(file, change)
    })
    // A removed directory ends its watcher; a new one with that name gets a fresh watcher.
    watcher.on('error', () => {
      watcher.close()
      watchers.delete(dir)
    })
    watchers.set(dir, watcher)
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) watchTree(join(dir, entry.name), change)
    }
  }

  for (const [folder, change] of watchedFolders(ws)) watchTree(folder, change)
  return () => {
    clearTimeout(timer)
    for (const watcher of watchers.values()) watcher.close()
    watchers.clear()
  }
}
