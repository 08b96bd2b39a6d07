/**
 * The image, built and run as a deployment runs it: the repository's Dockerfile built with
 * buildah over an offline stand-in for its default base (image/base.ts), then the image's own
 * command run in a working container on the host's loopback, with `/data` bound to a host
 * directory: the first key from the image's CLI, a pet created and read back, a SIGTERM in the
 * middle of a stream of requests, a restart on the same `/data`, and what its user may write.
 * Needs root, buildah, podman and debootstrap (`.ci/run` installs them); the first run makes the
 * base and fills the layer cache (minutes), later runs take both from buildah's storage. Prints
 * the build's time, the image's size and largest layers, and the shutdown's figures.
 */
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { NewPet, Pet } from '@petstore/types'
import { openapiDocument } from '@petstore/types/spec'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../src/free-port.js'
import { ensureBaseImage, repoRoot } from './image/base.js'
import { type Build, buildImage, type ImageConfig, imageConfig, imageSize } from './image/build.js'
import { type Service, uidsOf, WorkingContainer } from './image/container.js'
import { streamAcrossSignal } from './image/stream.js'
import { installed } from './image/tools.js'

/** The operation's path under the spec's base path (`/v1`), found by its operationId. */
function operationPath(operationId: string): string {
  const spec = openapiDocument as unknown as {
    servers: { url: string }[]
    paths: Record<string, Record<string, { operationId?: string }>>
  }
  const base = new URL(spec.servers[0]?.url ?? '').pathname
  for (const [path, item] of Object.entries(spec.paths)) {
    if (Object.values(item).some((operation) => operation?.operationId === operationId)) {
      return `${base}${path}`
    }
  }
  throw new Error(`the spec has no operation ${operationId}`)
}

const newPet = (
  openapiDocument as unknown as {
    components: { schemas: { NewPet: { examples: NewPet[] } } }
  }
).components.schemas.NewPet.examples[0] as NewPet

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

describe.runIf(
  installed(['buildah', 'podman', 'debootstrap', 'flock', 'npm'], 'scripts/test/image.test.ts'),
)('the image', { timeout: 180_000 }, () => {
  let build: Build
  let config: ImageConfig
  let container: WorkingContainer
  let other: WorkingContainer
  let dataDir: string
  let command: string[]
  let key: string
  /** The created pet's `Location`, a path: each run of the service has a port of its own. */
  let petPath: string
  let pet: Pet

  const uid = () => Number(config.User?.split(':')[0])
  const volumes = () => ({ [dataDir]: '/data' })
  const serve = async (): Promise<{ service: Service; url: string }> => {
    const port = await freePort()
    const service = await container.start(command, 'listening on', {
      volumes: volumes(),
      env: { PORT: String(port), HOST: '127.0.0.1' },
    })
    return { service, url: `http://127.0.0.1:${port}` }
  }
  const stop = async (service: Service) => {
    process.kill(service.pid(), 'SIGTERM')
    return await service.exited
  }

  beforeAll(async () => {
    const base = await ensureBaseImage()
    build = await buildImage(base.tag, 'localhost/petstore:test')
    config = await imageConfig(build.id)
    command = [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])]
    const { size, layers } = await imageSize(build.id)
    const largest = [...layers].sort((a, b) => b.size - a.size).slice(0, 3)
    console.log(
      [
        base.made
          ? `base ${base.tag} made in ${base.seconds.toFixed(0)} s`
          : `base ${base.tag} (cached)`,
        `image built in ${build.seconds.toFixed(1)} s, ${build.cached} of ${build.steps} steps from the layer cache`,
        `image ${megabytes(size)}; largest layers: ${largest
          .map(
            (layer) =>
              `${megabytes(layer.size)} ${layer.createdBy.replace('/bin/sh -c #(nop) ', '').slice(0, 60)}`,
          )
          .join('; ')}`,
      ].join('\n'),
    )
    const declared = Object.keys(config.Volumes ?? {})
    container = await WorkingContainer.create(build.id, declared)
    other = await WorkingContainer.create(build.id, declared)
    dataDir = mkdtempSync(join(tmpdir(), 'petstore-image-data-'))
    // As a platform prepares a volume for the image's user.
    chownSync(dataDir, uid(), uid())
  }, 40 * 60_000)

  afterAll(async () => {
    await container?.remove()
    await other?.remove()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('runs the package start script as a numeric non-root user, with /data as its volume and a health check', () => {
    const start = (
      JSON.parse(readFileSync(join(repoRoot, 'packages/server/package.json'), 'utf8')) as {
        scripts: { start: string }
      }
    ).scripts.start
    expect(command.join(' ')).toBe(start)
    expect(config.User).toMatch(/^[1-9]\d*:\d+$/)
    expect(Object.keys(config.Volumes ?? {})).toEqual(['/data'])
    expect(config.Env).toEqual(
      expect.arrayContaining(['HOST=0.0.0.0', 'PETSTORE_DB=/data/petstore.db']),
    )
    expect(config.Healthcheck?.Test?.[0]).toBe('CMD')
  })

  it("creates the first key with the image's CLI, then a pet that reads back; the health check passes", async () => {
    const { service, url } = await serve()
    try {
      const created = await container.exec(
        [
          'petstore',
          'keys',
          'create',
          '--plan',
          'enterprise',
          '--per-minute',
          '1000000',
          '--per-day',
          '100000000',
          '--name',
          'image',
        ],
        { volumes: volumes() },
      )
      expect(created.code, created.output).toBe(0)
      key = created.stdout.trim()
      expect(key).toMatch(/^\S{20,}$/)
      const reply = await fetch(`${url}${operationPath('createPet')}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(newPet),
      })
      expect(reply.status).toBe(201)
      pet = (await reply.json()) as Pet
      expect(pet).toMatchObject(newPet)
      petPath = new URL(reply.headers.get('location') ?? '', url).pathname
      const read = await fetch(`${url}${petPath}`, { headers: { authorization: `Bearer ${key}` } })
      expect([read.status, await read.json()]).toEqual([200, pet])
      const health = config.Healthcheck?.Test?.slice(1) ?? []
      const check = await container.exec(health, { env: { PORT: new URL(url).port } })
      expect(check.code, check.output).toBe(0)
    } finally {
      expect(await stop(service)).toBe(0)
    }
  })

  it('answers every request of a stream across SIGTERM, delivered to Node, and exits 0', async () => {
    const { service, url } = await serve()
    const auth = { authorization: `Bearer ${key}` }
    const started = Date.now()
    let signalledAt = 0
    const figures = await streamAcrossSignal({
      origin: url,
      lanes: 8,
      before: 200,
      timeoutMs: 30_000,
      exited: service.exited,
      // Half the lanes read the pet, half create pets: both kinds must be answered or refused.
      requests: (lane) =>
        lane % 2 === 0
          ? { method: 'GET', path: petPath, headers: auth }
          : {
              method: 'POST',
              path: operationPath('createPet'),
              headers: { ...auth, 'content-type': 'application/json' },
              body: JSON.stringify(newPet),
            },
      signal: () => {
        signalledAt = Date.now()
        process.kill(service.pid(), 'SIGTERM')
      },
    })
    const code = await service.exited
    const exitMs = Date.now() - signalledAt
    console.log(
      `SIGTERM after ${figures.answeredBefore} answers (${((signalledAt - started) / 1000).toFixed(1)} s of stream): ` +
        `${figures.answeredAfter} more answered (${JSON.stringify(figures.statusesAfter)}), last ${figures.lastAnswerMs} ms after the signal; ` +
        `${figures.refused} refused at connect; ${figures.broken.length} broken; exit ${code} ${exitMs} ms after the signal`,
    )
    expect(figures.broken).toEqual([])
    expect(figures.answeredBefore).toBeGreaterThanOrEqual(200)
    expect(service.stdout()).toContain('"signal":"SIGTERM"')
    expect(service.stdout()).toContain('"msg":"stopped"')
    expect(code).toBe(0)
  })

  it('keeps its data on /data across a restart, and refuses a second server on it', async () => {
    const { service, url } = await serve()
    try {
      const read = await fetch(`${url}${petPath}`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect([read.status, await read.json()]).toEqual([200, pet])
      expect(existsSync(join(dataDir, 'petstore.db'))).toBe(true)
      // Another container of the image given the same volume, as a second replica would be.
      const second = await other.exec(command, {
        timeoutMs: 60_000,
        volumes: volumes(),
        env: { PORT: String(await freePort()), HOST: '127.0.0.1' },
      })
      expect(second.code, second.output).toBe(1)
      expect(second.output).toContain('another petstore server is using /data/petstore.db')
    } finally {
      expect(await stop(service)).toBe(0)
    }
  })

  it('runs as its non-root user, who can write in /data and nowhere else the service uses', async () => {
    const { service } = await serve()
    try {
      expect(uidsOf(service.pid())).toEqual([uid(), uid(), uid(), uid()])
      expect(uid()).toBeGreaterThan(0)
    } finally {
      expect(await stop(service)).toBe(0)
    }
    const probe = await container.exec(
      [
        'sh',
        '-c',
        'id -u; for dir in /data /app /app/node_modules /app/dist / /etc /usr/local/bin /home /root; do ' +
          'if touch "$dir/.probe" 2>/dev/null; then rm "$dir/.probe"; echo "writable $dir"; fi; done; ' +
          'find / -xdev -writable ! -type l 2>/dev/null',
      ],
      { volumes: volumes() },
    )
    const [id, ...lines] = probe.stdout.trim().split('\n')
    expect(Number(id)).toBe(uid())
    expect(lines.filter((line) => line.startsWith('writable '))).toEqual(['writable /data'])
    // What else the user could write on the image's filesystem: only the world-writable sticky
    // temporary directories every Debian image has (read-only with a read-only root).
    const others = lines.filter((line) => !line.startsWith('writable '))
    expect(others.sort()).toEqual(['/data', '/run/lock', '/tmp', '/var/tmp'])
    // And every run above (server, CLI, shutdowns) wrote nothing outside /data.
    expect(await container.changes()).toEqual([])
  })
})
