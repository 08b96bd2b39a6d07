import { describe, expect, it } from 'vitest'
import {
  keyReaders,
  sampleSubstitutions,
  substitute,
  substituteAcross,
} from '../../src/browser/sample-text.js'

const built = 'https://api.petstore.example/v1'

describe('sampleSubstitutions', () => {
  it('changes nothing for the built server without a key', () => {
    expect(sampleSubstitutions(built, built, ' ')).toEqual([])
  })

  it('spells a typed key as each language’s literal, escaped', () => {
    const subs = sampleSubstitutions(built, 'http://127.0.0.1:3000/v1', `k'"$\\`)
    const shell = `curl '${built}/pets' -H "Authorization: Bearer ${keyReaders.shell.read}"`
    expect(substitute(shell, subs)).toBe(
      `curl 'http://127.0.0.1:3000/v1/pets' -H "Authorization: Bearer k'\\"\\$\\\\"`,
    )
    expect(substitute(`apiKey: ${keyReaders.javascript.read},`, subs)).toBe(`apiKey: 'k\\'"$\\\\',`)
    expect(substitute(`api_key = ${keyReaders.python.read}`, subs)).toBe(`api_key = "k'\\"$\\\\"`)
  })
})

describe('substituteAcross', () => {
  it('replaces a match split over parts in the part where it starts, keeping the parts', () => {
    const subs = [{ from: 'process.env.KEY', to: "'k'" }]
    expect(substituteAcross(['a ', 'process', '.', 'env.KEY', ' b'], subs)).toEqual([
      'a ',
      "'k'",
      '',
      '',
      ' b',
    ])
  })
})
