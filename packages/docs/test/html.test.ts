import { describe, expect, it } from 'vitest'
import { appendToBody, appendToHead, prependToHead, scriptJson } from '../src/html.js'

const page =
  '<html><head><meta charset="utf8"></head><body><script>"</body>"</script></body></html>'

describe('html edits', () => {
  it('prepends to and appends to the document head', () => {
    expect(prependToHead(page, 'A')).toContain('<head>A<meta')
    expect(appendToHead(page, 'B')).toContain('<meta charset="utf8">B</head>')
  })

  it('appends to the real end of the body, past any "</body>" in a script', () => {
    expect(appendToBody(page, 'C')).toMatch(/<\/script>C<\/body><\/html>$/)
  })

  it('fails loudly on a page without the expected tags', () => {
    expect(() => appendToHead('<p>', 'x')).toThrow(/no <\/head>/)
  })
})

describe('scriptJson', () => {
  it('cannot close the script element it is embedded in', () => {
    const json = scriptJson({ text: '</script><!--' })
    expect(json).not.toContain('</')
    expect(JSON.parse(json)).toEqual({ text: '</script><!--' })
  })
})
