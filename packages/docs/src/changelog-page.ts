/**
 * The changelog as a page of the docs site (`changelog.html`, beside `index.html`): one section
 * per version, newest first, breaking changes marked, deprecations and sunsets with their days.
 * Self-contained like the docs page (inline style, no script), light or dark as the reader's
 * system prefers.
 */
import type { ChangelogChange, ChangelogEntry } from './changelog.js'
import { formatSunset } from './deprecation.js'
import { contentSecurityPolicy } from './enhancements.js'
import { escapeHtml } from './html.js'
import type { OpenApiDocument } from './openapi.js'

export const changelogPage = 'changelog.html'
export const changelogFeed = 'changelog.atom'

/**
 * A copy of the document whose introduction opens with a link to the changelog and its feed:
 * the docs page's way there.
 */
export function withChangelogLink(document: OpenApiDocument): OpenApiDocument {
  const link = `[Changelog](${changelogPage}): what changed in each version of the API ([Atom feed](${changelogFeed})).`
  const description = String(document.info.description ?? '')
  return { ...document, info: { ...document.info, description: `${link}\n\n${description}` } }
}

/** The anchor of a version's section, e.g. `v1.1.0`. */
export const versionAnchor = (version: string) => `v${version}`

const deprecationRules = new Set([
  'operation-deprecated',
  'sunset-postponed',
  'sunset-brought-forward',
  'operation-removed-after-sunset',
])

function deprecationText({ deprecation }: ChangelogChange): string {
  if (!deprecation) return ''
  const parts = [
    deprecation.deprecatedAt && `deprecated ${formatSunset(deprecation.deprecatedAt)}`,
    deprecation.sunset && `sunset ${formatSunset(deprecation.sunset)}`,
  ].filter(Boolean)
  return parts.length === 0
    ? ' <span class="deprecation">deprecated</span>'
    : ` <span class="deprecation">${escapeHtml(parts.join(', '))}</span>`
}

function changeItem(change: ChangelogChange): string {
  const mark = change.kind === 'breaking' ? '<strong class="breaking">Breaking</strong> ' : ''
  return [
    `<li>${mark}<code>${escapeHtml(change.location)}</code>: `,
    `${escapeHtml(change.message)}${deprecationText(change)}</li>`,
  ].join('')
}

function group(title: string, changes: ChangelogChange[]): string[] {
  if (changes.length === 0) return []
  return [`<h3>${title}</h3>`, '<ul>', ...changes.map(changeItem), '</ul>']
}

/** A version's heading text, e.g. `Unreleased (1.1.0)` or `1.0.0, 23 Nov 2026`. */
export function entryTitle(entry: ChangelogEntry): string {
  return entry.released
    ? `${entry.version}, ${formatSunset(entry.updated.toISOString())}`
    : `Unreleased (${entry.version})`
}

/** The body of a version's section (what the Atom entry carries too). */
export function entryBody(entry: ChangelogEntry): string {
  const breaking = entry.changes.filter((c) => c.kind === 'breaking')
  const rest = entry.changes.filter((c) => c.kind !== 'breaking')
  const deprecations = rest.filter((c) => deprecationRules.has(c.rule) || c.deprecation)
  const other = rest.filter((c) => !deprecations.includes(c))
  const against = entry.previous
    ? `Compared with ${escapeHtml(entry.previous)}: ${breaking.length} breaking, ${rest.length} non-breaking change(s).`
    : `First release: ${entry.changes.length} operation(s).`
  return [
    `<p>${against}</p>`,
    ...(entry.changes.length === 0 ? ['<p>No change to the API contract.</p>'] : []),
    ...group('Breaking changes', breaking),
    ...group('Deprecations and sunsets', deprecations),
    ...group(entry.previous ? 'Additions and other changes' : 'Operations', other),
  ].join('\n')
}

function section(entry: ChangelogEntry): string {
  return [
    `<section id="${versionAnchor(entry.version)}" aria-labelledby="${versionAnchor(entry.version)}-title">`,
    `<h2 id="${versionAnchor(entry.version)}-title">${escapeHtml(entryTitle(entry))}</h2>`,
    entryBody(entry),
    '</section>',
  ].join('\n')
}

const style = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e;
  --line: #d1d9e0; --code: #f0f2f4; --link: #0044d4; --breaking: #b42318; --sunset: #c2410c; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181d; --fg: #e6e8eb; --muted: #9aa4b0; --line: #343a44; --code: #262a31;
    --link: #7aa2ff; --breaking: #ff8a80; --sunset: #fdba74; }
}
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 52rem; margin: 0 auto; padding: 1.5rem 1rem 4rem; }
nav { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; }
a { color: var(--link); }
h1 { margin: 1rem 0 0.25rem; }
h2 { margin: 2.5rem 0 0.5rem; padding-top: 1rem; border-top: 1px solid var(--line); }
h3 { margin: 1.25rem 0 0.25rem; font-size: 1rem; }
p, .intro { color: var(--muted); }
ul { padding-left: 1.25rem; }
li { margin: 0.35rem 0; overflow-wrap: anywhere; }
code { background: var(--code); border-radius: 4px; padding: 0.05rem 0.3rem;
  font: 0.875em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.breaking { color: var(--breaking); }
.deprecation { color: var(--sunset); font-weight: 600; }
`

export interface ChangelogPageOptions {
  /** The API's name, `info.title`. */
  title: string
}

/** The whole `changelog.html`. */
export function renderChangelogPage(
  entries: ChangelogEntry[],
  { title }: ChangelogPageOptions,
): string {
  const name = escapeHtml(title)
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Changelog: ${name}</title>
<link rel="alternate" type="application/atom+xml" title="${name} changelog" href="${changelogFeed}">
<style>${style}</style>
</head>
<body>
<main>
<nav><a href="./">API documentation</a><a href="${changelogFeed}">Atom feed</a></nav>
<h1>Changelog</h1>
<p class="intro">What changed in the ${name} API, version by version, as a client of the previous version sees it (the rules of <code>pnpm spec:diff</code>).</p>
${entries.map(section).join('\n')}
</main>
</body>
</html>
`
}
