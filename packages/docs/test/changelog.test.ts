/**
 * The changelog from the fixture history in fixtures/changelog/spec/ (1.0.0; 1.1.0 adds
 * createPet and deprecates getPet with a sunset; 2.0.0 makes listPets' `limit` required; the
 * edited spec, 2.1.0, adds an optional `status`), as a model, a page and an Atom feed; then the
 * repository's own history, as the docs build reads it.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readChangelog } from '../src/changelog.js'
import { renderChangelogFeed } from '../src/changelog-feed.js'
import {
  entryTitle,
  renderChangelogPage,
  versionAnchor,
  withChangelogLink,
} from '../src/changelog-page.js'
import { escapeHtml } from '../src/html.js'
import { distDir, spec } from './helpers.js'

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url))
const fixtureRoot = fileURLToPath(new URL('./fixtures/changelog/', import.meta.url))
const now = new Date('2026-04-15T12:00:00Z')
const entries = readChangelog(fixtureRoot, now)
const page = renderChangelogPage(entries, { title: 'Fixture Pets' })
const feed = renderChangelogFeed(entries, { title: 'Fixture Pets', host: 'api.fixture.example' })

/** The text of each `<section>` of the page, tags dropped. */
function sections(html: string): string[] {
  return [...html.matchAll(/<section\b[^>]*>([\s\S]*?)<\/section>/g)].map((match) =>
    (match[1] as string)
      .replace(/<[^>]+>/g, '')
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, ' ')
      .trim(),
  )
}

describe('readChangelog', () => {
  it('has one entry per version, newest first, the edited spec as unreleased', () => {
    expect(entries.map((e) => [e.version, e.released, e.previous])).toEqual([
      ['2.1.0', false, '2.0.0'],
      ['2.0.0', true, '1.1.0'],
      ['1.1.0', true, '1.0.0'],
      ['1.0.0', true, undefined],
    ])
    expect(entries.map((e) => e.updated.toISOString())).toEqual([
      now.toISOString(),
      '2026-03-30T00:00:00.000Z',
      '2026-02-20T00:00:00.000Z',
      '2026-01-10T00:00:00.000Z',
    ])
  })

  it('classifies each version’s changes with the spec:diff engine', () => {
    const rules = Object.fromEntries(
      entries.map((e) => [e.version, e.changes.map((c) => `${c.kind} ${c.rule}`)]),
    )
    expect(rules).toEqual({
      '2.1.0': ['non-breaking optional-parameter-added'],
      '2.0.0': ['breaking parameter-became-required'],
      '1.1.0': ['non-breaking operation-added', 'non-breaking operation-deprecated'],
      '1.0.0': ['non-breaking operation-added', 'non-breaking operation-added'],
    })
    const deprecated = entries[2]?.changes.find((c) => c.rule === 'operation-deprecated')
    expect(deprecated?.deprecation).toEqual({ deprecatedAt: '2026-01-01', sunset: '2030-12-05' })
  })

  it('leaves out “Unreleased” when the edited spec is the last release', async () => {
    const { cpSync, mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const copy = mkdtempSync(join(tmpdir(), 'changelog-'))
    try {
      cpSync(fixtureRoot, copy, { recursive: true })
      cpSync(join(copy, 'spec/released/2.0.0.yaml'), join(copy, 'spec/openapi.yaml'))
      expect(readChangelog(copy, now).map((e) => e.version)).toEqual(['2.0.0', '1.1.0', '1.0.0'])
      rmSync(join(copy, 'spec/released/dates.yaml'))
      expect(() => readChangelog(copy, now)).toThrow(
        'spec/released/dates.yaml gives no day (YYYY-MM-DD) for spec/released/',
      )
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })
})

describe('renderChangelogPage', () => {
  it('shows a section per version, newest first, breaking changes marked', () => {
    const [unreleased, major, minor, first] = sections(page)
    expect(unreleased).toMatch(
      /^Unreleased \(2\.1\.0\) Compared with 2\.0\.0: 0 breaking, 1 non-breaking/,
    )
    expect(unreleased).toContain('GET /pets query parameter status')
    expect(major).toMatch(/^2\.0\.0, 30 Mar 2026 Compared with 1\.1\.0: 1 breaking/)
    expect(major).toContain(
      'Breaking changes Breaking GET /pets query parameter limit: limit is now required',
    )
    expect(page).toContain('<strong class="breaking">Breaking</strong>')
    expect(minor).toMatch(/^1\.1\.0, 20 Feb 2026/)
    expect(minor).toContain(
      'Deprecations and sunsets GET /pets/{petId}: the operation is now deprecated deprecated 1 Jan 2026, sunset 5 Dec 2030',
    )
    expect(minor).toContain('Additions and other changes POST /pets: createPet was added')
    expect(first).toMatch(/^1\.0\.0, 10 Jan 2026 First release: 2 operation\(s\)\. Operations/)
  })

  it('follows the reader’s colour scheme and loads nothing from elsewhere', () => {
    expect(page).toContain('<meta name="color-scheme" content="light dark">')
    expect(page).toContain('@media (prefers-color-scheme: dark)')
    expect(page).toContain('<link rel="alternate" type="application/atom+xml"')
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//)
  })
})

describe('renderChangelogFeed', () => {
  it('is an Atom 1.0 feed with one entry per released version, linking to its section', () => {
    expect(feed).toMatch(
      /^<\?xml version="1\.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom">/,
    )
    const head = feed.slice(0, feed.indexOf('<entry>'))
    expect(head).toContain('<id>tag:api.fixture.example,2026-01-10:changelog</id>')
    expect(head).toContain('<title>Fixture Pets changelog</title>')
    // The newest release's day (dates.yaml), not the build's time.
    expect(head).toContain('<updated>2026-03-30T00:00:00Z</updated>')
    const items = [...feed.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((m) => m[1] as string)
    expect(items.map((item) => item.match(/<title>(.*)<\/title>/)?.[1])).toEqual([
      '2.0.0, 30 Mar 2026',
      '1.1.0, 20 Feb 2026',
      '1.0.0, 10 Jan 2026',
    ])
    for (const item of items) {
      expect(item).toMatch(/<id>tag:api\.fixture\.example,2026-01-10:changelog:\d+\.\d+\.\d+<\/id>/)
      expect(item).toMatch(/<updated>\d{4}-\d\d-\d\dT00:00:00Z<\/updated>/)
      expect(item).toMatch(
        /<link rel="alternate" type="text\/html" href="changelog\.html#v[\d.]+"\/>/,
      )
      // The section's HTML, escaped once: no raw tag inside the XML element.
      const content = item.match(/<content type="html">([\s\S]*)<\/content>/)?.[1] ?? ''
      expect(content).toContain('&lt;p&gt;')
      expect(content).not.toMatch(/<[a-z]/)
    }
  })

  it('is the same whenever it is built: dated by releases only', () => {
    const later = readChangelog(fixtureRoot, new Date('2031-01-01T00:00:00Z'))
    expect(later[0]?.released).toBe(false)
    expect(renderChangelogFeed(later, { title: 'Fixture Pets', host: 'api.fixture.example' })).toBe(
      feed,
    )
  })
})

describe('the built site', () => {
  it('links the changelog from the docs page’s introduction', () => {
    expect(String(withChangelogLink(spec).info.description)).toMatch(
      /^\[Changelog\]\(changelog\.html\): .*\(\[Atom feed\]\(changelog\.atom\)\)\./,
    )
  })

  it('shows each release of this repository on the page and in the feed, the newest with its changes', async () => {
    const releases = readChangelog(repositoryRoot).filter((entry) => entry.released)
    const built = await readFile(join(distDir, 'changelog.html'), 'utf8')
    const atom = await readFile(join(distDir, 'changelog.atom'), 'utf8')
    expect(releases.map((entry) => entry.version)).toContain('1.0.0')
    for (const release of releases) {
      expect(built).toContain(
        `<h2 id="${versionAnchor(release.version)}-title">${escapeHtml(entryTitle(release))}</h2>`,
      )
      expect(atom).toContain(`changelog:${release.version}</id>`)
    }
    const [newest] = releases
    expect(newest?.changes.length, `release ${newest?.version} lists no change`).toBeGreaterThan(0)
    for (const change of newest?.changes ?? []) {
      const item = `<code>${escapeHtml(change.location)}</code>: ${escapeHtml(change.message)}`
      expect(built).toContain(item)
      expect(atom).toContain(escapeHtml(item))
    }
  })
})
