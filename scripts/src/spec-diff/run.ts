import { type DiffOptions, diffSpecs } from './diff.js'
import { loadSpec } from './load.js'
import { displayPath } from './paths.js'
import type { DiffResult } from './report.js'

/** Loads both spec files and classifies what changed from `baseFile` to `headFile`. */
export function diffFiles(
  baseFile: string,
  headFile: string,
  options: DiffOptions = {},
): DiffResult {
  const base = loadSpec(baseFile)
  const head = loadSpec(headFile)
  return {
    base: { file: displayPath(baseFile), version: base.version },
    head: { file: displayPath(headFile), version: head.version },
    changes: diffSpecs(base.doc, head.doc, options),
  }
}
