/**

 * The spec lint: Spectral with `spec/spectral.yaml`, then our own rules: plain YAML 1.2
 * (`plain-yaml.ts`), every response to its header sets (`header-sets.ts`), an example for every
 * schema and response (`examples.ts`) and the support table (`../support/table.ts`). `pnpm
 * lint`, each save in `pnpm dev` and the tests all call this, so they agree on every finding.
 */
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { isObject } from '../spec-diff/load.js'
import { describeUnsupported, pointerTokens, unsupported } from '../support/table.js'
import { missingExamples } from './examples.js'
import type { Finding } from './finding.js'
import { headerSetFindings } from './header-sets.js'
import { plainYamlFindings, plainYamlOptions } from './plain-yaml.js'
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
  return [...(await spectral), ...ownFindings(spec)]
}

/** Our own rules on a file; one that is not YAML gets Spectral's parser finding alone. */
function ownFindings(spec: string): Finding[] {
  const text = readFileSync(spec, 'utf8')
  let doc: unknown
  try {
    doc = parse(text, plainYamlOptions)
  } catch {
    return []
  }
  if (!isObject(doc)) return []
  return [
    ...plainYamlFindings(text),
    ...headerSetFindings(doc),
    ...missingExamples(doc),
    ...supportFindings(doc),
  ]
}

function supportFindings(doc: Record<string, unknown>): Finding[] {
  return unsupported(doc).map((finding) => ({
    code: 'petstore-support',
    severity: 'error',
    path: pointerTokens(finding.where),
    message: describeUnsupported(finding),
  }))
}
