import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileFor } from '../src/static-server.js'
import { type Served, serveStatic } from './helpers.js'

let root: string
let served: Served
let mounted: Served

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'docs-static-'))
  await mkdir(join(root, 'sub'))
  await writeFile(join(root, 'index.html'), '<h1>docs</h1>')
  await writeFile(join(root, 'openapi.yaml'), 'openapi: 3.1.0\n')
  await writeFile(join(root, 'openapi.json'), '{}')
  await writeFile(join(root, 'sub', 'index.html'), 'sub')
  served = await serveStatic(root)
  mounted = await serveStatic(root, '/docs/')
})

afterAll(async () => {
  await served?.close()
  await mounted?.close()
  await rm(root, { recursive: true, force: true })
})

describe('createStaticServer', () => {
  it.each([
    ['/', 'text/html; charset=utf-8', '<h1>docs</h1>'],
    ['/index.html', 'text/html; charset=utf-8', '<h1>docs</h1>'],
    ['/openapi.json', 'application/json; charset=utf-8', '{}'],
    ['/openapi.yaml', 'application/yaml; charset=utf-8', 'openapi: 3.1.0\n'],
  ])('serves %s as %s', async (path, type, body) => {
    const response = await fetch(`${served.url}${path}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(type)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await response.text()).toBe(body)
  })

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await fetch(`${served.url}/openapi.json`, { method: 'HEAD' })
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([
      200,
      '2',
      '',
    ])
    const post = await fetch(`${served.url}/`, { method: 'POST' })
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD'])
  })

  it('redirects a directory to its slash form and 404s what is missing', async () => {
    const sub = await fetch(`${served.url}/sub?x=1`, { redirect: 'manual' })
    expect([sub.status, sub.headers.get('location')]).toEqual([301, '/sub/?x=1'])
    expect((await fetch(`${served.url}/nope.js`)).status).toBe(404)
  })

  it('serves below a mount path, redirecting the bare mount to its slash form', async () => {
    const bare = await fetch(`${mounted.url}/docs`, { redirect: 'manual' })
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/docs/'])
    expect(await (await fetch(`${mounted.url}/docs/`)).text()).toBe('<h1>docs</h1>')
    expect((await fetch(`${mounted.url}/index.html`)).status).toBe(404)
  })
})

describe('fileFor', () => {
  it.each(['/../etc/passwd', '/%2e%2e/secret', '/a/%00', '/%E0%A4%A'])('refuses %s', (path) => {
    expect(fileFor('/srv/docs', '/', path)).toBeUndefined()
  })

  it('maps a directory to its index.html', () => {
    expect(fileFor('/srv/docs', '/docs/', '/docs/')).toBe('/srv/docs/index.html')
    expect(fileFor('/srv/docs', '/docs/', '/docs/openapi.json')).toBe('/srv/docs/openapi.json')
  })
})
