/**
 * Builds the static docs site: `index.html` (Redoc 3, self-contained), the bundled spec as
 * `openapi.json` and `openapi.yaml` for download, and the changelog (`changelog.html`, linked
 * from the page's introduction, and its Atom feed `changelog.atom`). Any static host can serve
 * the folder as is.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { hashRouteLinks, legacyAnchors } from './address.js'
import type { ChangelogEntry } from './changelog.js'
import { renderChangelogFeed } from './changelog-feed.js'
import {
  changelogFeed,
  changelogPage,
  renderChangelogPage,
  withChangelogLink,
} from './changelog-page.js'
import { sampleBaseUrl, withCodeSamples } from './code-samples.js'
import { withSunsetBadges } from './deprecation.js'
import { enhancements } from './enhancements.js'
import { withGuides } from './guides.js'
import { appendToBody, appendToHead, escapeHtml, prependToHead } from './html.js'
import { findRemoteFetches, inlineRemoteAssets } from './offline.js'
import type { OpenApiDocument } from './openapi.js'
import { withOperationIds } from './operation-ids.js'
import { renderWithRedocly } from './redocly.js'
import { withStabilityBadges } from './stability.js'
import { tryItData } from './try-it-data.js'
import { withUnwrappedDescriptions } from './unwrap.js'

/** The files of a built site, relative to its folder. */
export const siteFiles = [
  'index.html',
  'openapi.json',
  'openapi.yaml',
  changelogPage,
  changelogFeed,
] as const

/**
 * What the rendered page shows: the spec with its guides (`guides.ts`), code samples, sunset and
 * stability badges and ids added, and its wrapped descriptions joined into lines (for Redoc's
 * search).
 */
export function renderedSpec(
  spec: OpenApiDocument,
  apiBaseUrl = sampleBaseUrl(spec),
): OpenApiDocument {
  const samples = withCodeSamples(withGuides(spec, apiBaseUrl), apiBaseUrl)
  return withUnwrappedDescriptions(withOperationIds(withStabilityBadges(withSunsetBadges(samples))))
}

/** Inline, so that browsers do not ask the host for `/favicon.ico`. */
const favicon = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8" fill="#0044d4"/></svg>',
)}`

export interface BuildOptions {
  /**
   * The server the samples and try-it address when the page is not served by the service itself
   * (which the page detects, then using its own origin). Default: `servers[0]` of the spec.
   */
  apiBaseUrl?: string
  /** The release history (`readChangelog`), newest first; the site's changelog shows it. */
  changelog: ChangelogEntry[]
}

/** The host the feed's ids are minted on: the spec's first server's, whatever the build targets. */
function feedHost(spec: OpenApiDocument): string {
  const url = spec.servers?.[0]?.url
  return url ? new URL(url, 'http://localhost').hostname : 'localhost'
}

/** Fails when a page would request anything from another host. */
function assertOffline(name: string, html: string): void {
  const remote = findRemoteFetches(html)
  if (remote.length > 0) {
    throw new Error(`the docs page ${name} would fetch from other hosts: ${remote.join(', ')}`)
  }
}

/**
 * Writes the site into `outDir`, replacing what was there. Fails, writing nothing, when the page
 * would request anything from another host.
 */
export async function buildSite(
  spec: OpenApiDocument,
  outDir: string,
  { apiBaseUrl = sampleBaseUrl(spec), changelog }: BuildOptions,
): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'petstore-docs-'))
  try {
    const specPath = join(work, 'openapi.json')
    const htmlPath = join(work, 'index.html')
    await writeFile(specPath, JSON.stringify(withChangelogLink(renderedSpec(spec, apiBaseUrl))))
    await renderWithRedocly({ specPath, outputPath: htmlPath })
    const added = await enhancements(tryItData(spec, apiBaseUrl), legacyAnchors(spec))
    let html = hashRouteLinks(inlineRemoteAssets(await readFile(htmlPath, 'utf8')))
    html = prependToHead(html, `\n${added.headStart}\n`)
    const summary = typeof spec.info.summary === 'string' ? spec.info.summary : spec.info.title
    html = appendToHead(
      html,
      [
        `<meta name="description" content="${escapeHtml(summary)}">`,
        `<link rel="icon" href="${favicon}">`,
        added.head,
        '',
      ].join('\n'),
    )
    html = appendToBody(html, `${added.body}\n`)
    assertOffline('index.html', html)
    const title = spec.info.title
    const changelogHtml = renderChangelogPage(changelog, { title })
    assertOffline(changelogPage, changelogHtml)
    await rm(outDir, { recursive: true, force: true })
    await mkdir(outDir, { recursive: true })
    await writeFile(join(outDir, 'index.html'), html)
    await writeFile(join(outDir, 'openapi.json'), `${JSON.stringify(spec, null, 2)}\n`)
    await writeFile(join(outDir, 'openapi.yaml'), stringify(spec, { lineWidth: 0 }))
    await writeFile(join(outDir, changelogPage), changelogHtml)
    await writeFile(
      join(outDir, changelogFeed),
      renderChangelogFeed(changelog, { title, host: feedHost(spec) }),
    )
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
