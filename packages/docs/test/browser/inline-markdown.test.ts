import { describe, expect, it } from 'vitest'
import {
  hasInlineMarkdown,
  inlinePlainText,
  inlineSegments,
} from '../../src/browser/inline-markdown.js'
import { spec } from '../helpers.js'

describe('inlineSegments', () => {
  it('reads code spans as CommonMark does', () => {
    expect(inlineSegments('Local (`pnpm start`)')).toEqual([
      { kind: 'text', text: 'Local (' },
      { kind: 'code', text: 'pnpm start' },
      { kind: 'text', text: ')' },
    ])
    // A longer fence holds a backtick; one space each side is stripped.
    expect(inlineSegments('`` a`b ``')).toEqual([{ kind: 'code', text: 'a`b' }])
    expect(inlineSegments('` `')).toEqual([{ kind: 'code', text: ' ' }])
    // The closer must be a run of the same length.
    expect(inlineSegments('``a`b``')).toEqual([{ kind: 'code', text: 'a`b' }])
    expect(inlineSegments('`a``')).toEqual([{ kind: 'text', text: '`a``' }])
  })

  it('keeps HTML and unmatched backticks as text, and honours backslash escapes', () => {
    expect(inlineSegments('<b>x</b> `<i>`')).toEqual([
      { kind: 'text', text: '<b>x</b> ' },
      { kind: 'code', text: '<i>' },
    ])
    expect(inlineSegments('a \\`b` c')).toEqual([{ kind: 'text', text: 'a `b` c' }])
    expect(inlineSegments('C:\\dir')).toEqual([{ kind: 'text', text: 'C:\\dir' }])
  })
})

describe('inlinePlainText and hasInlineMarkdown', () => {
  it('shows what a reader sees', () => {
    expect(inlinePlainText('Local (`pnpm start`)')).toBe('Local (pnpm start)')
    expect(hasInlineMarkdown('Local (`pnpm start`)')).toBe(true)
    expect(hasInlineMarkdown('Production')).toBe(false)
    expect(hasInlineMarkdown('')).toBe(false)
  })

  it('leaves no Markdown syntax in any server description of the spec', () => {
    for (const { description = '' } of spec.servers ?? []) {
      expect(inlinePlainText(description)).not.toContain('`')
    }
  })
})
