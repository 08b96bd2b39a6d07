/**
 * The guides as the page shows them, before the spec's own sections, and what their curl
 * commands send: each body as the media type its operation declares (a merge patch is refused as
 * `application/json`), read from the spec rather than trusted to the prose.
 */
import { describe, expect, it } from 'vitest'
import { snippetsOf } from '../src/guide-template.js'
import { guides, withGuides } from '../src/guides.js'
import { listOperations } from '../src/openapi.js'
import { spec } from './helpers.js'

const base = 'https://pets.test/v1'

describe('withGuides', () => {
  it('puts the guides, in order, after the opening paragraphs, before the first heading', () => {
    const description = String(withGuides(spec, base).info.description)
    const headings = [...description.matchAll(/^# (.+)$/gm)].map((m) => m[1])
    const titles = guides(spec, base).map((guide) => guide.title)
    expect(titles).toEqual(['Getting started', 'Adopting a pet'])
    expect(headings.slice(0, titles.length)).toEqual(titles)
    expect(description.startsWith(String(spec.info.description).split('\n# ')[0] as string)).toBe(
      true,
    )
  })
})

/** One curl command of a snippet, its continuation lines joined. */
interface Curl {
  method: string
  path: string
  contentType: string | undefined
  sendsBody: boolean
}

function curlsOf(source: string): Curl[] {
  const joined = source.replace(/\\\n\s*/g, ' ')
  return [...joined.matchAll(/curl [^\n]*/g)].map(([command]) => {
    const url = /['"](https?:\/\/[^'"]+)['"]/.exec(command)?.[1] ?? ''
    return {
      method: /-X (\w+)/.exec(command)?.[1] ?? 'GET',
      path: url.slice(base.length).split('?')[0] as string,
      contentType: /-H ['"]Content-Type: ([^'"]+)['"]/i.exec(command)?.[1],
      sendsBody: / -d /.test(command),
    }
  })
}

/** The operation a curl command calls: its method, and its path with shell variables as parameters. */
function operationOf(curl: Curl) {
  return listOperations(spec).find(({ method, path }) => {
    const template = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`)
    return method.toUpperCase() === curl.method && template.test(curl.path)
  })
}

describe('the guides’ curl commands', () => {
  const curls = guides(spec, base).flatMap((guide) =>
    snippetsOf(guide.markdown)
      .filter((snippet) => snippet.lang === 'bash')
      .flatMap((snippet) => curlsOf(snippet.source).map((curl) => ({ guide: guide.title, curl }))),
  )

  it('each call an operation of the spec', () => {
    expect(curls.length).toBeGreaterThan(0)
    for (const { guide, curl } of curls) {
      expect(operationOf(curl), `${guide}: ${curl.method} ${curl.path}`).toBeDefined()
    }
  })

  it('send a body as the media type its operation declares', () => {
    const withBody = curls.filter(({ curl }) => curl.sendsBody)
    expect(withBody.length).toBeGreaterThan(0)
    for (const { guide, curl } of withBody) {
      const where = `${guide}: ${curl.method} ${curl.path}`
      expect(curl.contentType, where).toBe(operationOf(curl)?.bodyMediaType)
    }
  })
})
