import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { shellQuote, toTypeScriptLiteral } from '../src/literal.js'

describe('toTypeScriptLiteral', () => {
  it('writes objects with bare keys and single-quoted strings', () => {
    expect(toTypeScriptLiteral({ name: 'Rex', categoryId: 1, 'x-y': [true, null] })).toBe(
      "{ name: 'Rex', categoryId: 1, 'x-y': [true, null] }",
    )
  })

  it('escapes quotes, backslashes and newlines', () => {
    const text = "it's a \\ \n"
    const literal = toTypeScriptLiteral(text)
    expect(literal).toBe("'it\\'s a \\\\ \\n'")
    expect(new Function(`return ${literal}`)()).toBe(text)
  })

  it('writes an empty object as {}', () => {
    expect(toTypeScriptLiteral({})).toBe('{}')
  })
})

describe('shellQuote', () => {
  it.each([['plain'], ["it's"], ['$HOME `x` "y" \\ !']])('keeps %j intact in bash', (value) => {
    expect(execFileSync('bash', ['-c', `printf %s ${shellQuote(value)}`]).toString()).toBe(value)
  })
})
