import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { tryItDataId } from '../src/browser/types.js'
import { buildSite, renderedSpec, siteFiles } from '../src/build.js'
import { codeSamples, sampleBaseUrl } from '../src/code-samples.js'
import { contentSecurityPolicy } from '../src/enhancements.js'
import { listOperations } from '../src/openapi.js'
import { tryItData } from '../src/try-it-data.js'
import { distDir, spec } from './helpers.js'

const read = (name: string) => readFile(join(distDir, name), 'utf8')

describe('the built site (dist/)', () => {
  it('offers the bundled spec, unchanged, as JSON and YAML', async () => {
    expect(JSON.parse(await read('openapi.json'))).toEqual(spec)
    expect(parse(await read('openapi.yaml'))).toEqual(spec)
  })

  it('holds exactly the site files', async () => {
    expect((await readdir(distDir)).sort()).toEqual([...siteFiles].sort())
  })

  it('renders the enriched spec, with its policy first in <head> and the console data', async () => {
    const html = await read('index.html')
    const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'))
    expect(head.indexOf('Content-Security-Policy')).toBeLessThan(head.indexOf('<style'))
    expect(head).toContain(contentSecurityPolicy)
    expect(Buffer.from(html).indexOf('<meta charset')).toBeLessThan(1024)
    const data = html.match(
      new RegExp(`<script type="application/json" id="${tryItDataId}">(.*?)</script>`),
    )
    expect(JSON.parse(data?.[1] ?? '')).toEqual(tryItData(spec, sampleBaseUrl(spec)))
    for (const entry of listOperations(spec)) {
      for (const sample of codeSamples(spec, entry)) {
        expect(html).toContain(JSON.stringify(sample.source).slice(1, -1).replace(/</g, '\\u003c'))
      }
    }
  })
})

describe('renderedSpec', () => {
  it('leaves the bundled spec itself untouched', () => {
    const before = JSON.stringify(spec)
    renderedSpec(spec)
    expect(JSON.stringify(spec)).toBe(before)
  })
})

describe('buildSite', () => {
  it('refuses, writing nothing, a page that would fetch from another host', async () => {
    const work = await mkdtemp(join(tmpdir(), 'docs-build-'))
    try {
      const tracked = structuredClone(spec)
      tracked.info.description = `${tracked.info.description}\n\n<img src="https://tracker.example/p.png">`
      const outDir = join(work, 'dist')
      await expect(buildSite(tracked, outDir, { changelog: [] })).rejects.toThrow(
        /would fetch from other hosts: https:\/\/tracker\.example\/p\.png/,
      )
      expect(existsSync(outDir)).toBe(false)
    } finally {
      await rm(work, { recursive: true, force: true })
    }
  })
})
