/**
 * The "Adopting a pet" guide, after "Getting started": `adopting-a-pet.md` filled in with the
 * server the samples name and the stability of the operations below `stable`, read from the
 * spec. The docs' tests run its snippets in order, in one shell, against a real server.
 */
import { lifecycleOf, stabilityLevels } from '@petstore/types/openapi'
import { fillGuide } from './guide-template.js'
import { listOperations, type OpenApiDocument } from './openapi.js'

/** A list in words: `a`, `a and b`, `a, b and c`. */
function inWords(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** What the guide says of the operations below `stable`, one sentence per level. */
function stability(document: OpenApiDocument): string {
  const operations = listOperations(document)
  const sentences = stabilityLevels
    .filter((level) => level !== 'stable')
    .flatMap((level) => {
      const ids = operations
        .filter(({ operation }) => lifecycleOf(operation).stability === level)
        .map(({ operation }) => `\`${operation.operationId}\``)
      if (ids.length === 0) return []
      const verb = ids.length === 1 ? 'is' : 'are'
      return [`${inWords(ids)} ${verb} **${level}** (see [Stability](#/section/stability)).`]
    })
  return sentences.length > 0
    ? `${sentences.join(' ')} Such an operation works as documented, but may still change in a way that breaks clients before it is declared stable.`
    : 'Every operation it uses is stable.'
}

/** The section's Markdown for `document`, its snippets addressing `apiBaseUrl`. */
export function adoptingAPet(document: OpenApiDocument, apiBaseUrl: string): string {
  return fillGuide('adopting-a-pet.md', { apiBaseUrl, stability: stability(document) })
}
