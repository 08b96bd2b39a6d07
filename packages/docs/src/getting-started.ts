/**
 * The "Getting started" guide, first in the introduction: `getting-started.md` filled in from
 * the spec (its title, the server the samples name, the deprecated operations) and the client's
 * supported Node.js versions. The docs' tests run every snippet in it against a real server.
 */
import { createRequire } from 'node:module'
import { formatSunset } from './deprecation.js'
import { fillGuide } from './guide-template.js'
import { listOperations, type OpenApiDocument } from './openapi.js'

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
  return fillGuide('getting-started.md', {
    title: document.info.title,
    apiBaseUrl,
    nodeVersion: clientNodeVersions(),
    deprecations: deprecations(document),
  })
}
