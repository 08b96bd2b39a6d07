/** After a spec edit: what `pnpm spec:diff` says about it (breaking or not, for clients). */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { runNode, tsxLoader } from './run.js'
import type { Workspace } from './workspace.js'

/** Lines to print, each starting with `spec:diff`. */
export async function specDiffSummary(ws: Workspace): Promise<string[]> {
  const cli = join(ws.root, 'scripts/src/spec-diff/cli.ts')
  if (!existsSync(cli)) {
    return ['spec:diff unavailable: scripts/src/spec-diff/cli.ts is not in this checkout']
  }
  const result = await runNode(['--import', tsxLoader, cli], { cwd: ws.root })
  const lines = result.output.split('\n').filter((line) => line.trim() !== '')
  // A non-zero exit is the CLI's verdict (e.g. a breaking change), reported, not a loop failure.
  const verdict = result.code === 0 ? [] : [`spec:diff exited with code ${result.code}`]
  return [...lines.map((line) => `spec:diff ${line}`), ...verdict]
}
