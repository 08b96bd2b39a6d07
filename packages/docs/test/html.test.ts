import { describe, expect, it } from 'vitest'
import { appendToBody, appendToHead, prependToHead, scriptJson } from '../src/html.js'

const page =
  '<html><head><meta charset="utf8"></head><body><script>"</body>"</script></body></html>'

describe('html edits', () => {
  it('prepends to the head after its charset, and appends to it', () => {
    expect(prependToHead(page, 'A')).toContain('<head><meta charset="utf8">A</head>')
    expect(prependToHead('<head><title>t</title></head>', 'A')).toContain('<head>A<title>')
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
