import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findRemoteFetches, inlineRemoteAssets, remoteAssetReplacements } from '../src/offline.js'
import { distDir } from './helpers.js'

describe('findRemoteFetches', () => {
  it('finds resources that tags, CSS and scripts would load from other hosts', () => {
    const html = [
      '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">',
      '<img src="//cdn.example.com/a.png">',
      '<style>@font-face{src:url("https://fonts.gstatic.com/x.woff2")}</style>',
      '<script type="module">import { hydrate } from "https://cdn.example.com/redoc.js";',
      'const img = {src:e?"https://cdn.example.com/logo.svg":null}; fetch("https://t.example.com/e")</script>',
    ].join('\n')
    expect(findRemoteFetches(html)).toEqual([
      '//cdn.example.com/a.png',
      'https://cdn.example.com/logo.svg',
      'https://cdn.example.com/redoc.js',
      'https://fonts.googleapis.com/css?family=Roboto',
      'https://fonts.gstatic.com/x.woff2',
      'https://t.example.com/e',
    ])
  })

  it('ignores links a reader may follow, loopback hosts and data in the spec', () => {
    const html = [
      '<a href="https://github.com/petstore/petstore">repo</a>',
      '<img src="http://127.0.0.1:3000/x.png"><img src="http://localhost/y.png">',
      '<script>const spec = {"url":"https://api.petstore.example/v1"}</script>',
    ].join('\n')
    expect(findRemoteFetches(html)).toEqual([])
  })
})

describe('inlineRemoteAssets', () => {
  it('replaces every known remote asset with an inline image', () => {
    const urls = Object.keys(remoteAssetReplacements)
    const html = inlineRemoteAssets(`<script>${urls.map((u) => `src:"${u}"`).join(';')}</script>`)
    for (const url of urls) expect(html).not.toContain(url)
    expect(html).toContain('src:"data:image/svg+xml,')
  })
})

describe('the built page', () => {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8')

  it('loads nothing from another host and has Redoc’s bundle inline', () => {
    expect(findRemoteFetches(html)).toEqual([])
    expect(html).not.toMatch(/<script[^>]+src=/)
    expect(html).toContain('hydrate(__redoc_definition')
  })

  it('turns Redoc’s telemetry off', () => {
    expect(html).toContain('"disableTelemetry":true')
  })

  it('uses system fonts only', () => {
    expect(html).not.toMatch(/fonts\.(googleapis|gstatic)\.com/)
    expect(html).toMatch(/--font-family-base:\s*system-ui/)
  })
})
