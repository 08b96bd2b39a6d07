/**
 * Spectral with the repository's ruleset (`spec/spectral.yaml`: `spectral:oas`, OWASP and our
 * own rules), in this process through Spectral's own API, set up as its CLI sets it up. The
 * ruleset is bundled once per process and kept until its file changes: `pnpm dev` lints on every
 * save, and bundling costs as much as linting. The ruleset's OWASP package resolves from the
 * node_modules above the ruleset, and a ruleset that asks for a URL fails: nothing is fetched.
 */
import * as fs from 'node:fs'
import { Document, type Ruleset, Spectral } from '@stoplight/spectral-core'
// CommonJS whose exports Node cannot list by name: only its default import works.
import parsers from '@stoplight/spectral-parsers'
import { builtins } from '@stoplight/spectral-ruleset-bundler/plugins/builtins'
import { commonjs } from '@stoplight/spectral-ruleset-bundler/plugins/commonjs'
import { bundleAndLoadRuleset } from '@stoplight/spectral-ruleset-bundler/with-loader'
import { type Finding, SEVERITIES } from './finding.js'

const offline = (url: unknown) =>
  Promise.reject(new Error(`the spec lint runs offline, and the ruleset asks for ${url}`))

const rulesets = new Map<string, { mtimeMs: number; ruleset: Promise<Ruleset> }>()

function rulesetAt(file: string): Promise<Ruleset> {
  const { mtimeMs } = fs.statSync(file)
  const cached = rulesets.get(file)
  if (cached?.mtimeMs === mtimeMs) return cached.ruleset
  const io = { fs, fetch: offline as unknown as typeof globalThis.fetch }
  const ruleset = bundleAndLoadRuleset(file, io, [builtins(), commonjs()])
  rulesets.set(file, { mtimeMs, ruleset })
  // A ruleset that failed to load is read again next time, not remembered.
  ruleset.catch(() => rulesets.delete(file))
  return ruleset
}

/**
 * Every finding Spectral makes in `specFile` with `ruleset`. The ruleset's `overrides` name the
 * file as `openapi.yaml`, so a copy to lint must keep that name.
 */
export async function spectralFindings(specFile: string, ruleset: string): Promise<Finding[]> {
  const spectral = new Spectral()
  spectral.setRuleset(await rulesetAt(ruleset))
  const document = new Document(fs.readFileSync(specFile, 'utf8'), parsers.Yaml, specFile)
  const results = await spectral.run(document)
  return results.map((result) => ({
    code: String(result.code),
    severity: SEVERITIES[result.severity] ?? 'error',
    path: result.path.map(String),
    message: result.message,
  }))
}
