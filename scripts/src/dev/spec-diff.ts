/** After a spec edit: what `pnpm spec:diff` says of the spec against the last release. */
import { join } from 'node:path'
import { runNode, tsxLoader } from './run.js'
import type { Workspace } from './workspace.js'

/** Lines to print: the CLI's summary (`spec:diff: …`) and its indented changes. */
export async function specDiffSummary(ws: Workspace): Promise<string[]> {
  const cli = join(ws.root, 'scripts/src/spec-diff/cli.ts')
  const result = await runNode(['--import', tsxLoader, cli], { cwd: ws.root })
  const lines = result.output.split('\n').filter((line) => line.trim() !== '')
  // A non-zero exit (an unreadable spec) is reported, not a failure of the loop.
  const verdict = result.code === 0 ? [] : [`spec:diff exited with code ${result.code}`]
  return [...lines, ...verdict]
}
