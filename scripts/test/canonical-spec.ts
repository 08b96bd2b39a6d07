/** The canonical spec as the spec-lint tests read it: its file, its ruleset and fresh copies. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import type { Json } from '../src/spec-diff/load.js'
import { CURRENT_SPEC } from '../src/spec-diff/paths.js'
import { SPECTRAL_RULESET } from '../src/spec-lint/lint.js'
import { plainYamlOptions } from '../src/spec-lint/plain-yaml.js'

export const root = new URL('../../', import.meta.url).pathname
export const spec = join(root, CURRENT_SPEC)
export const ruleset = join(root, SPECTRAL_RULESET)
export const specText = readFileSync(spec, 'utf8')

/** A fresh parsed copy of the spec, for one test to edit. */
export const specCopy = () => parse(specText, plainYamlOptions) as Json

/** The node at `keys` below `node`. */
export const at = (node: unknown, ...keys: string[]) =>
  keys.reduce((found, key) => (found as Json)[key], node) as Json
