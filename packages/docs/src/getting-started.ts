/**
 * The "Getting started" section, first in the introduction: `getting-started.md` filled in from
 * the spec (its title, the server the samples name, the deprecated operations) and the client's
 * supported Node.js versions. The docs' tests run every snippet in it against a real server.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { formatSunset } from './deprecation.js'
import { listOperations, type OpenApiDocument } from './openapi.js'

const template = readFileSync(new URL('./getting-started.md', import.meta.url), 'utf8')
const require = createRequire(import.meta.url)

/** The client's supported Node.js versions in words, e.g. `20.19 or later`. */
function clientNodeVersions(): string {
  const { engines } = require('@petstore/client/package.json') as { engines?: { node?: string } }
  const range = engines?.node ?? ''
  const minimum = /^>=\s*([\d.]+)$/.exec(range.trim())?.[1]
  return minimum ? `${minimum} or later` : range
}

function deprecations(document: OpenApiDocument): string {
  const lines = listOperations(document)
    .filter(({ operation }) => operation.deprecated)
    .map(({ method, path, operation }) => {
      const sunset = operation['x-sunset']
        ? `, removed on ${formatSunset(operation['x-sunset'])}`
        : ''
      const successor = operation['x-successor'] ? `: use \`${operation['x-successor']}\`` : ''
      return `- \`${operation.operationId}\` (\`${method.toUpperCase()} ${path}\`)${sunset}${successor}.`
    })
  return lines.length > 0 ? lines.join('\n') : '- No operation is deprecated today.'
}

/** The section's Markdown for `document`, its snippets addressing `apiBaseUrl`. */
export function gettingStarted(document: OpenApiDocument, apiBaseUrl: string): string {
  const values: Record<string, string> = {
    title: document.info.title,
    apiBaseUrl,
    nodeVersion: clientNodeVersions(),
    deprecations: deprecations(document),
  }
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`getting-started.md: unknown placeholder ${whole}`)
    return value
  })
}

/** A fenced code block of the section. */
export interface Snippet {
  lang: string
  source: string
}

/** The fenced code blocks of `markdown`, in order. */
export function snippetsOf(markdown: string): Snippet[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    lang: match[1] as string,
    source: match[2] as string,
  }))
}

/**
 * A copy of the document whose description starts with the section, after its opening
 * paragraphs and before its first heading.
 */
export function withGettingStarted(document: OpenApiDocument, apiBaseUrl: string): OpenApiDocument {
  const copy = structuredClone(document)
  const description = typeof copy.info.description === 'string' ? copy.info.description : ''
  const firstHeading = description.search(/^# /m)
  const at = firstHeading < 0 ? description.length : firstHeading
  const section = gettingStarted(document, apiBaseUrl).trim()
  copy.info.description =
    `${description.slice(0, at).trimEnd()}\n\n${section}\n\n${description.slice(at)}`.trim()
  return copy
}
