/** Renders the bundled spec into a self-contained static site under dist/. */
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)
const spec = require.resolve('@petstore/types/openapi.json')
const redocly = require.resolve('@redocly/cli/bin/cli.js')
execFileSync(
  process.execPath,
  [redocly, 'build-docs', spec, '--output', join(here, '../dist/index.html'), '--inlineBundle'],
  { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
)
