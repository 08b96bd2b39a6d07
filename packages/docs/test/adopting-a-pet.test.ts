import { lifecycleOf } from '@petstore/types/openapi'
import { describe, expect, it } from 'vitest'
import { adoptingAPet } from '../src/adopting-a-pet.js'
import { keyReaders } from '../src/browser/sample-text.js'
import { snippetsOf } from '../src/guide-template.js'
import { listOperations } from '../src/openapi.js'
import { spec } from './helpers.js'

const base = 'https://pets.test/v1'

describe('adoptingAPet', () => {
  const markdown = adoptingAPet(spec, base)

  it('fills every placeholder', () => {
    expect(markdown).not.toMatch(/\{\{/)
  })

  it('names the operations below stable with their level, as the spec marks them', () => {
    const leveled = listOperations(spec).filter(
      ({ operation }) => lifecycleOf(operation).stability !== 'stable',
    )
    expect(leveled.length, 'the spec has operations below stable').toBeGreaterThan(0)
    for (const { operation } of leveled) {
      const level = lifecycleOf(operation).stability
      expect(markdown).toMatch(
        new RegExp(
          `\`${operation.operationId}\`[^.]* are \\*\\*${level}\\*\\*|\`${operation.operationId}\` is \\*\\*${level}\\*\\*`,
        ),
      )
    }
    const stable = structuredClone(spec)
    for (const { operation } of listOperations(stable)) delete operation['x-stability-level']
    expect(adoptingAPet(stable, base)).toContain('Every operation it uses is stable.')
  })

  it('has shell snippets in one session and a client program, reading the key as the samples do', () => {
    const snippets = snippetsOf(markdown)
    expect(snippets.map((s) => s.lang)).toEqual(['bash', 'bash', 'bash', 'bash', 'bash', 'ts'])
    for (const { source } of snippets.filter((s) => s.lang === 'bash')) {
      expect(source).toContain(`${base}/`)
      expect(source).toContain(`"Authorization: Bearer ${keyReaders.shell.read}"`)
    }
    const [program] = snippets.filter((s) => s.lang === 'ts')
    expect(program?.source).toContain(`baseUrl: '${base}'`)
    expect(program?.source).toContain(keyReaders.javascript.read)
  })
})
