import { expect, it } from 'vitest'
import { contentSecurityPolicy, enhancements } from '../src/enhancements.js'
import { tryItData } from '../src/try-it-data.js'
import { spec } from './helpers.js'

it('lets the page load nothing from another host but keeps the console free to connect', () => {
  const directives: Record<string, string[]> = Object.fromEntries(
    contentSecurityPolicy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
  )
  for (const name of ['default-src', 'script-src', 'style-src', 'img-src', 'font-src']) {
    expect(
      directives[name]?.every((source) => !/^https?:|^\*$/.test(source)),
      name,
    ).toBe(true)
  }
  expect(directives['connect-src']).toEqual(['*'])
})

it('inlines the console as a self-contained script that cannot end its element early', async () => {
  const { headStart, head, body } = await enhancements(tryItData(spec, 'https://pets.test/v1'), {})
  expect(headStart).toMatch(/^<meta http-equiv="Content-Security-Policy"/)
  expect(head).toContain('.ps-tryit')
  const script = body.slice(body.lastIndexOf('<script>') + 8, body.lastIndexOf('</script>'))
  expect(script).not.toMatch(/<\/script|\bimport\b|\brequire\(/i)
  expect(script.length).toBeGreaterThan(1000)
})
