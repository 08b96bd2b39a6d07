/**
 * Spectral with the repository's ruleset (`spec/spectral.yaml`: `spectral:oas`, OWASP and our
 * own rules), run as its CLI from node_modules. A child process keeps Spectral's memory and
 * start-up out of the dev loop, and lets it run beside the generator on the other core. The
 * ruleset's OWASP package resolves from the node_modules above the ruleset: nothing is fetched.
 */
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { type Finding, SEVERITIES } from './finding.js'

const cli = createRequire(import.meta.url).resolve('@stoplight/spectral-cli/dist/index.js')

interface SpectralResult {
  code: string | number
  severity: number
  path: (string | number)[]
  message: string
}

/**
 * Every finding Spectral makes in `specFile` with `ruleset`. The ruleset's `overrides` name the
 * file as `openapi.yaml`, so a copy to lint must keep that name.
 */
export function spectralFindings(specFile: string, ruleset: string): Promise<Finding[]> {
  const args = [cli, 'lint', specFile, '--ruleset', ruleset, '--format', 'json', '--quiet']
  return new Promise((resolve, reject) => {
    // Exit 1 means findings at error severity: the JSON is on stdout all the same.
    execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      let results: SpectralResult[]
      try {
        results = JSON.parse(stdout) as SpectralResult[]
      } catch {
        reject(new Error(`spectral lint ${specFile} failed: ${stderr.trim() || error?.message}`))
        return
      }
      resolve(results.map(toFinding))
    })
  })
}

const toFinding = (result: SpectralResult): Finding => ({
  code: String(result.code),
  severity: SEVERITIES[result.severity] ?? 'error',
  path: result.path.map(String),
  message: result.message,
})
