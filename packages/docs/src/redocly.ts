/** Runs `redocly build-docs`: the spec rendered by Redoc 3 into one HTML file. */
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { promisify } from 'node:util'
import { sampleLanguages } from './code-samples.js'

const require = createRequire(import.meta.url)
const run = promisify(execFile)

/**
 * Redoc options for the rendered page. Downloads point at the files written next to
 * `index.html`, so the page works from any mount path and any static host.
 * @see https://redocly.com/docs/redoc/config
 */
export const redocOptions = {
  downloadUrls: [
    { title: 'OpenAPI (JSON)', url: 'openapi.json' },
    { title: 'OpenAPI (YAML)', url: 'openapi.yaml' },
  ],
  jsonSamplesExpandLevel: 'all',
  // Without it Redoc shows only the languages it knows by name (no TypeScript) and drops the rest.
  codeSamples: { languages: sampleLanguages },
  sortRequiredPropsFirst: true,
}

export interface RenderOptions {
  /** Path of the (enriched) spec file to render. */
  specPath: string
  /** Where the HTML goes. */
  outputPath: string
  title?: string
}

/**
 * Renders with `--inlineBundle` so that Redoc's script is embedded instead of loaded from
 * Redocly's CDN, and with telemetry off so that the page never phones home.
 */
export async function renderWithRedocly({
  specPath,
  outputPath,
  title,
}: RenderOptions): Promise<void> {
  const cli = require.resolve('@redocly/cli/bin/cli.js')
  const args = [cli, 'build-docs', specPath, '--output', outputPath, '--inlineBundle']
  args.push('--openapi', JSON.stringify(redocOptions), '--lint-config', 'off')
  if (title) args.push('--title', title)
  await run(process.execPath, args, {
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    },
    maxBuffer: 16 * 1024 * 1024,
  })
}
