/**
 * Builds the static docs site: `index.html` (Redoc 3, self-contained), and the bundled spec as
 * `openapi.json` and `openapi.yaml` for download. Any static host can serve the folder as is.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { legacyAnchors } from './address.js'
import { sampleBaseUrl, withCodeSamples } from './code-samples.js'
import { withSunsetBadges } from './deprecation.js'
import { enhancements } from './enhancements.js'
import { withGettingStarted } from './getting-started.js'
import { appendToBody, appendToHead, prependToHead } from './html.js'
import { findRemoteFetches, inlineRemoteAssets } from './offline.js'
import type { OpenApiDocument } from './openapi.js'
import { withOperationIds } from './operation-ids.js'
import { renderWithRedocly } from './redocly.js'
import { tryItData } from './try-it-data.js'
import { withUnwrappedDescriptions } from './unwrap.js'

/** The files of a built site, relative to its folder. */
export const siteFiles = ['index.html', 'openapi.json', 'openapi.yaml'] as const

/**
 * What the rendered page shows: the spec with a getting-started section, code samples, sunset
 * badges and ids added, and its wrapped descriptions joined into lines (for Redoc's search).
 */
export function renderedSpec(
  spec: OpenApiDocument,
  apiBaseUrl = sampleBaseUrl(spec),
): OpenApiDocument {
  const samples = withCodeSamples(withGettingStarted(spec, apiBaseUrl), apiBaseUrl)
  return withUnwrappedDescriptions(withOperationIds(withSunsetBadges(samples)))
}

/** Inline, so that browsers do not ask the host for `/favicon.ico`. */
const favicon = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8" fill="#0044d4"/></svg>',
)}`

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

export interface BuildOptions {
  /**
   * The server the samples and try-it address when the page is not served by the service itself
   * (which the page detects, then using its own origin). Default: `servers[0]` of the spec.
   */
  apiBaseUrl?: string
}

/**
 * Writes the site into `outDir`, replacing what was there. Fails, writing nothing, when the page
 * would request anything from another host.
 */
export async function buildSite(
  spec: OpenApiDocument,
  outDir: string,
  { apiBaseUrl = sampleBaseUrl(spec) }: BuildOptions = {},
): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'petstore-docs-'))
  try {
    const specPath = join(work, 'openapi.json')
    const htmlPath = join(work, 'index.html')
    await writeFile(specPath, JSON.stringify(renderedSpec(spec, apiBaseUrl)))
    await renderWithRedocly({ specPath, outputPath: htmlPath })
    const added = await enhancements(tryItData(spec, apiBaseUrl), legacyAnchors(spec))
    let html = inlineRemoteAssets(await readFile(htmlPath, 'utf8'))
    html = prependToHead(html, `\n${added.headStart}\n`)
    const summary = typeof spec.info.summary === 'string' ? spec.info.summary : spec.info.title
    html = appendToHead(
      html,
      [
        `<meta name="description" content="${escapeAttribute(summary)}">`,
        `<link rel="icon" href="${favicon}">`,
        added.head,
        '',
      ].join('\n'),
    )
    html = appendToBody(html, `${added.body}\n`)
    const remote = findRemoteFetches(html)
    if (remote.length > 0) {
      throw new Error(`the docs page would fetch from other hosts: ${remote.join(', ')}`)
    }
    await rm(outDir, { recursive: true, force: true })
    await mkdir(outDir, { recursive: true })
    await writeFile(join(outDir, 'index.html'), html)
    await writeFile(join(outDir, 'openapi.json'), `${JSON.stringify(spec, null, 2)}\n`)
    await writeFile(join(outDir, 'openapi.yaml'), stringify(spec, { lineWidth: 0 }))
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
