/**
 * The spec lint: Spectral with `spec/spectral.yaml`, then the example rule and the support table. `pnpm lint`, each
 * save in `pnpm dev` and the tests all call this, so they agree on every finding.
 */
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { isObject, specYamlOptions } from '../spec-diff/load.js'
import { describeUnsupported, pointerTokens, unsupported } from '../support/table.js'
import { missingExamples } from './examples.js'
import type { Finding } from './finding.js'
import { spectralFindings } from './spectral.js'

/** The ruleset, relative to the workspace root. */
export const SPECTRAL_RULESET = 'spec/spectral.yaml'

export interface LintInput {
  /** The spec file; a copy must be named `openapi.yaml` (see `spectralFindings`). */
  spec: string
  /** Spectral's ruleset, usually `spec/spectral.yaml` of the same workspace. */
  ruleset: string
}

export async function lintSpec({ spec, ruleset }: LintInput): Promise<Finding[]> {
  const spectral = spectralFindings(spec, ruleset)
  return [...(await spectral), ...documentFindings(spec)]
}

/**
 * The example rule and the support table (support/table.ts) on a file; one that is not YAML gets
 * Spectral's parser finding alone.
 */
function documentFindings(spec: string): Finding[] {
  let doc: unknown
  try {
    doc = parse(readFileSync(spec, 'utf8'), specYamlOptions)
  } catch {
    return []
  }
  if (!isObject(doc)) return []
  return [...missingExamples(doc), ...supportFindings(doc)]
}

function supportFindings(doc: Record<string, unknown>): Finding[] {
  return unsupported(doc).map((finding) => ({
    code: 'petstore-support',
    severity: 'error',
    path: pointerTokens(finding.where),
    message: describeUnsupported(finding),
  }))
}
