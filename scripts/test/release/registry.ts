/**
 * A throwaway npm registry: verdaccio (the workspace's pinned copy) in a child process, its
 * storage, users and config in a directory of the caller's, listening on 127.0.0.1 only, with
 * no uplinks: it serves what was published to it and answers 404 for anything else.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { stringify } from 'yaml'
import { freePort } from '../../src/free-port.js'
import { cleanEnv, type Daemon, startDaemon, waitForHttp } from './processes.js'

export interface Registry {
  /** `http://127.0.0.1:PORT/` */
  url: string
  /** A bearer token of the registry's one user, who may publish `@petstore/*`. */
  token: string
  /** The line a `.npmrc` needs to send that token to this registry, and to no other. */
  authLine: string
  /** The packument of `name` as npm reads it, or undefined when the registry does not have it. */
  packument(name: string): Promise<Packument | undefined>
  stop(): Promise<void>
}

export interface Packument {
  'dist-tags': Record<string, string>
  versions: Record<string, { dist: { tarball: string } }>
}

const verdaccioBin = join(
  dirname(createRequire(import.meta.url).resolve('verdaccio/package.json')),
  'bin',
  'verdaccio',
)

export async function startRegistry(dir: string): Promise<Registry> {
  mkdirSync(join(dir, 'storage'), { recursive: true })
  const config = join(dir, 'config.yaml')
  writeFileSync(
    config,
    stringify({
      storage: join(dir, 'storage'),
      auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 1 } },
      uplinks: {},
      packages: {
        '@petstore/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
        '**': { access: '$all', publish: '$authenticated' },
      },
      // The server's tarball carries the built docs; the default cap is 10 MB.
      max_body_size: '100mb',
      web: { enable: false },
      log: { type: 'stdout', format: 'pretty', level: 'warn' },
    }),
  )
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  const daemon = startDaemon(
    process.execPath,
    [verdaccioBin, '--config', config, '--listen', `127.0.0.1:${port}`],
    { cwd: dir, env: cleanEnv() },
  )
  try {
    await waitForHttp(`${url}-/ping`, daemon)
    const token = await addUser(url, daemon)
    return {
      url,
      token,
      authLine: `//127.0.0.1:${port}/:_authToken=${token}`,
      async packument(name) {
        const response = await fetch(new URL(name.replace('/', '%2f'), url))
        if (response.status === 404) return undefined
        if (!response.ok)
          throw new Error(`GET ${name}: ${response.status} ${await response.text()}`)
        return (await response.json()) as Packument
      },
      stop: () => daemon.stop(),
    }
  } catch (error) {
    await daemon.stop()
    throw error
  }
}

/** Signs the one user up through the registry's own API (`npm adduser` does the same). */
async function addUser(url: string, daemon: Daemon): Promise<string> {
  const name = 'release-test'
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: `pw-${process.pid}-${Date.now()}` }),
  })
  const body = (await response.json()) as { token?: string }
  if (response.status !== 201 || typeof body.token !== 'string') {
    throw new Error(`adduser: ${response.status} ${JSON.stringify(body)}\n${daemon.output()}`)
  }
  return body.token
}
