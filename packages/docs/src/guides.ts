/**
 * The guides the introduction starts with, in this order, before the spec's own sections: each a
 * Markdown section whose snippets the docs' tests run against a real server.
 */
import { adoptingAPet } from './adopting-a-pet.js'
import { gettingStarted } from './getting-started.js'
import type { OpenApiDocument } from './openapi.js'

/** A guide: its title (the section's heading) and Markdown. */
export interface Guide {
  title: string
  markdown: string
}

/** The guides for `document`, their snippets addressing `apiBaseUrl`, in page order. */
export function guides(document: OpenApiDocument, apiBaseUrl: string): Guide[] {
  return [gettingStarted, adoptingAPet].map((write) => {
    const markdown = write(document, apiBaseUrl).trim()
    const title = /^# (.+)$/m.exec(markdown)?.[1]
    if (title === undefined)
      throw new Error(`a guide has no "# " heading: ${markdown.slice(0, 60)}`)
    return { title, markdown }
  })
}

/**
 * A copy of the document whose description starts with the guides, after its opening paragraphs
 * and before its first heading.
 */
export function withGuides(document: OpenApiDocument, apiBaseUrl: string): OpenApiDocument {
  const copy = structuredClone(document)
  const description = typeof copy.info.description === 'string' ? copy.info.description : ''
  const firstHeading = description.search(/^# /m)
  const at = firstHeading < 0 ? description.length : firstHeading
  const sections = guides(document, apiBaseUrl)
    .map((guide) => guide.markdown)
    .join('\n\n')
  copy.info.description =
    `${description.slice(0, at).trimEnd()}\n\n${sections}\n\n${description.slice(at)}`.trim()
  return copy
}
