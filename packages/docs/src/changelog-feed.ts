/**
 * The changelog as an Atom 1.0 feed (`changelog.atom`, beside `changelog.html`): one entry per
 * released version, newest first, whose content is the version's section of the page, dated by
 * its release day (`spec/released/dates.yaml`), and so is the feed: the same history gives the
 * same feed whenever it is built. An unreleased edit of the spec, which the page shows, is not
 * news yet and has no day: it is left out. Ids are tag URIs
 * (RFC 4151) on the API's host, stable across builds and hosts; links are relative to the feed,
 * so the site works at any address.
 * @see https://www.rfc-editor.org/rfc/rfc4287 The Atom Syndication Format
 */
import type { ChangelogEntry } from './changelog.js'
import {
  changelogFeed,
  changelogPage,
  entryBody,
  entryTitle,
  versionAnchor,
} from './changelog-page.js'
import { escapeHtml } from './html.js'

export interface ChangelogFeedOptions {
  /** The API's name, `info.title`. */
  title: string
  /** The host the ids are minted on, e.g. `api.petstore.example` (from `servers[0]`). */
  host: string
}

/** Seconds precision, as Atom dates are usually written. */
const atomDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z')

/** The whole `changelog.atom`. */
export function renderChangelogFeed(
  changelog: ChangelogEntry[],
  { title, host }: ChangelogFeedOptions,
): string {
  const entries = changelog.filter((entry) => entry.released)
  const first = entries.at(-1)?.updated ?? new Date(0)
  const feedId = `tag:${host},${first.toISOString().slice(0, 10)}:changelog`
  const updated = new Date(Math.max(0, ...entries.map((entry) => entry.updated.getTime())))
  const items = entries.map((entry) =>
    [
      '  <entry>',
      `    <id>${feedId}:${escapeHtml(entry.version)}</id>`,
      `    <title>${escapeHtml(entryTitle(entry))}</title>`,
      `    <updated>${atomDate(entry.updated)}</updated>`,
      `    <link rel="alternate" type="text/html" href="${changelogPage}#${versionAnchor(entry.version)}"/>`,
      `    <content type="html">${escapeHtml(entryBody(entry))}</content>`,
      '  </entry>',
    ].join('\n'),
  )
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${feedId}</id>`,
    `  <title>${escapeHtml(title)} changelog</title>`,
    `  <updated>${atomDate(updated)}</updated>`,
    `  <author><name>${escapeHtml(title)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${changelogFeed}"/>`,
    `  <link rel="alternate" type="text/html" href="${changelogPage}"/>`,
    ...items,
    '</feed>',
    '',
  ].join('\n')
}
