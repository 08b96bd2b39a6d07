import { describe, expect, it } from 'vitest'
import { renderedSpec } from '../src/build.js'
import { listOperations } from '../src/openapi.js'
import { unwrapMarkdown, withUnwrappedDescriptions } from '../src/unwrap.js'
import { spec } from './helpers.js'

describe('unwrapMarkdown', () => {
  it('joins a paragraph’s wrapped lines with one space', () => {
    expect(unwrapMarkdown('make retries\nsafe: a retry\n  replays it.\n\nNext.')).toBe(
      'make retries safe: a retry replays it.\n\nNext.',
    )
  })

  it('joins a list item’s continuation lines, and keeps items apart', () => {
    expect(unwrapMarkdown('- one\n  more\n- two\n1. three\n   four')).toBe(
      '- one more\n- two\n1. three four',
    )
  })

  it('keeps code, tables, headings, quotes and hard breaks as they are', () => {
    const kept = [
      '# Title',
      'text',
      '',
      '```bash',
      'curl a',
      '  -H b',
      '```',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '> quoted',
      '> more',
      '',
      '    indented code',
      '    more code',
      '',
      'hard  ',
      'break',
    ].join('\n')
    expect(unwrapMarkdown(kept)).toBe(kept)
  })
})

describe('withUnwrappedDescriptions', () => {
  it('unwraps every description of the rendered copy, and no example', () => {
    const document = {
      info: { description: 'a\nb' },
      paths: { '/x': { get: { description: 'c\nd', responses: {} } } },
      components: { examples: { e: { value: { description: 'kept\nas is' } } } },
    }
    expect(withUnwrappedDescriptions(document)).toEqual({
      info: { description: 'a b' },
      paths: { '/x': { get: { description: 'c d', responses: {} } } },
      components: { examples: { e: { value: { description: 'kept\nas is' } } } },
    })
  })

  it('is what the page renders: createPet’s description reads “retries safe”', () => {
    const createPet = listOperations(renderedSpec(spec)).find(
      ({ operation }) => operation.operationId === 'createPet',
    )
    expect(createPet?.operation.description).toMatch(/retries safe: a retry/)
    expect(JSON.stringify(spec)).toMatch(/retries\\nsafe/)
  })
})
