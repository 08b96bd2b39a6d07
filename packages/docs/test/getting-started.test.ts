import { describe, expect, it } from 'vitest'
import { keyReaders } from '../src/browser/sample-text.js'
import { gettingStarted } from '../src/getting-started.js'
import { snippetsOf } from '../src/guide-template.js'
import { spec } from './helpers.js'

const base = 'https://pets.test/v1'

describe('gettingStarted', () => {
  const markdown = gettingStarted(spec, base)

  it('fills every placeholder, the deprecated operations from the spec included', () => {
    expect(markdown).not.toMatch(/\{\{/)
    expect(markdown).toContain('`getPet` (`GET /pets/{petId}`), removed on 5 Dec 2030')
  })

  it('has snippets that address the server and read the key as the samples do', () => {
    const snippets = snippetsOf(markdown)
    expect(snippets.map((s) => s.lang)).toEqual(['bash', 'bash', 'bash', 'ts', 'bash', 'ts'])
    for (const { source } of snippets.filter((s) => s.source.includes('Bearer'))) {
      expect(source).toContain(`${base}/pets`)
      expect(source).toContain(keyReaders.shell.read)
    }
    for (const { source } of snippets.filter((s) => s.lang === 'ts')) {
      expect(source).toContain(`baseUrl: '${base}'`)
      expect(source).toContain(keyReaders.javascript.read)
    }
  })
})
