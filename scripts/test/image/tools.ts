/**
 * Whether the programs a suite runs are installed: in CI (CI=true) a missing one fails the suite,
 * since `.ci/run` installs them; elsewhere the suite is skipped with a loud line saying which.
 */
import { execFileSync } from 'node:child_process'

export function installed(tools: readonly string[], suite: string): boolean {
  const missing = tools.filter((tool) => {
    try {
      execFileSync('sh', ['-c', 'command -v "$0"', tool], { stdio: 'ignore' })
      return false
    } catch {
      return true
    }
  })
  if (missing.length === 0) return true
  const line = `${missing.join(', ')} not installed (Debian packages; .ci/run installs them)`
  if (process.env.CI === 'true') throw new Error(`${line}: CI needs them`)
  process.stderr.write(`\n!!!!!!!! SKIPPED ${suite}: ${line}. !!!!!!!!\n\n`)
  return false
}
