/**
 * compose.yaml, checked without a Docker daemon: dclint (the Compose linter, which validates
 * against the Compose Specification's JSON schema it bundles) passes it with no warning and
 * refuses a broken copy; each api service gets exactly the variables the multi-instance tests run
 * their servers with (@petstore/scripts/instance-env), pointing at the stack's own PostgreSQL and
 * Redis; every `service_healthy` dependency has a health check; passwords come only from the
 * environment; and Prometheus's configuration loads, with the server's alert rules, in Debian's
 * promtool and scrapes each api service on its metrics port.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { instanceEnv } from '../src/instance-env.js'
import { installed } from './image/tools.js'
import { run } from './release/processes.js'

const repoRoot = new URL('../../', import.meta.url).pathname
const composeFile = join(repoRoot, 'compose.yaml')
const source = readFileSync(composeFile, 'utf8')
const dclint = join(repoRoot, 'scripts', 'node_modules', '.bin', 'dclint')

interface Service {
  image?: string
  build?: string
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string[] }
  configs?: { source: string; target: string }[]
  command?: string[]
}
interface Compose {
  services: Record<string, Service>
  configs: Record<string, { content?: string; file?: string }>
}
/** As Compose reads it: merge keys (`<<: *api`) applied, variables left as written. */
const compose = parse(source, { merge: true }) as Compose
const services = Object.entries(compose.services)
/** `${NAME:?message}` replaced as Compose does when NAME is set in the environment. */
const interpolate = (value: string, env: Record<string, string>) =>
  value.replace(/\$\{([A-Z_]+):\?[^}]*\}/g, (_, name: string) => env[name] ?? '')
const passwords = { POSTGRES_PASSWORD: 'a1b2c3', REDIS_PASSWORD: 'd4e5f6' }
/** The services built from this repository's Dockerfile: the instances of the API. */
const apis = services.filter(([, service]) => service.build === '.')

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-compose-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('compose.yaml', () => {
  it('passes dclint (the Compose Specification schema and its rules) with no warning', async () => {
    const result = await run(dclint, ['--max-warnings=0', '--color=false', 'compose.yaml'], {
      cwd: repoRoot,
    })
    console.log(
      `dclint compose.yaml: exit ${result.code}${result.output.trim() ? `\n${result.output}` : ', no problem'}`,
    )
    expect(result.code, result.output).toBe(0)
    // The same check fails a copy whose dependency condition is not one Compose knows.
    const broken = join(dir, 'compose.yaml')
    writeFileSync(broken, source.replace('condition: service_healthy', 'condition: service_ready'))
    const refused = await run(dclint, ['--color=false', broken], { cwd: repoRoot })
    expect(refused.code).toBe(1)
    expect(refused.output).toContain('invalid-schema')
  })

  it('runs two instances of the image with the environment of the multi-instance tests', () => {
    expect(apis.map(([name]) => name)).toEqual(['api-1', 'api-2'])
    const tested = Object.keys(instanceEnv({ databaseUrl: '', redisUrl: '', metricsPort: '' }))
    for (const [name, service] of apis) {
      const env = service.environment ?? {}
      expect(Object.keys(env).sort(), name).toEqual(tested.sort())
      const database = new URL(interpolate(env.DATABASE_URL ?? '', passwords))
      const redis = new URL(interpolate(env.REDIS_URL ?? '', passwords))
      expect([database.protocol, redis.protocol]).toEqual(['postgres:', 'redis:'])
      expect([database.password, redis.password]).toEqual([
        passwords.POSTGRES_PASSWORD,
        passwords.REDIS_PASSWORD,
      ])
      // The stack's own services, each a dependency that must be healthy first.
      for (const host of [database.hostname, redis.hostname]) {
        expect(compose.services[host]?.image, `${name} -> ${host}`).toBeDefined()
        expect(service.depends_on?.[host]?.condition).toBe('service_healthy')
      }
    }
  })

  it('waits only on dependencies that have a health check', () => {
    for (const [name, service] of services) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(condition, `${name} -> ${dependency}`).toBe('service_healthy')
        expect(compose.services[dependency]?.healthcheck?.test, dependency).toBeDefined()
      }
    }
  })

  it("checks the API's health as the Dockerfile's HEALTHCHECK does", () => {
    const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8')
    const healthcheck = /^HEALTHCHECK [^\n]*\\\n\s*CMD (\[.*\])$/m.exec(dockerfile)?.[1]
    expect(healthcheck).toBeDefined()
    for (const [, service] of apis) {
      expect(service.healthcheck?.test).toEqual(['CMD', ...JSON.parse(healthcheck ?? '[]')])
    }
  })

  it('takes every password from the environment and fails without it', () => {
    const references = [...source.matchAll(/\$\{([^}]*)\}/g)].map((match) => match[1] ?? '')
    expect(references.length).toBeGreaterThan(0)
    for (const reference of references) expect(reference).toMatch(/^[A-Z_]+:\?.+/)
    expect(new Set(references.map((reference) => reference.split(':')[0]))).toEqual(
      new Set(['POSTGRES_PASSWORD', 'REDIS_PASSWORD']),
    )
    const tracked = execFileSync('git', ['ls-files', '--', '.env', '*.env'], { cwd: repoRoot })
    expect(String(tracked)).toBe('')
  })

  it.runIf(installed(['promtool'], 'scripts/test/compose.test.ts (Prometheus)'))(
    "configures a Prometheus that loads the server's alert rules and scrapes each instance",
    async () => {
      const [, prometheus] =
        services.find(([, service]) => service.image?.startsWith('prom/prometheus')) ?? []
      expect(prometheus?.configs).toBeDefined()
      // Each config where the service reads it, under a directory of the test's own.
      let config = ''
      for (const { source: name, target } of prometheus?.configs ?? []) {
        const entry = compose.configs[name]
        const text = entry?.content ?? readFileSync(join(repoRoot, entry?.file ?? ''), 'utf8')
        writeFileSync(join(dir, basename(target)), text)
        if (target === '/etc/prometheus/prometheus.yml') config = text
      }
      expect(prometheus?.command).toContain('--config.file=/etc/prometheus/prometheus.yml')
      writeFileSync(join(dir, 'prometheus.yml'), config.replaceAll('/etc/prometheus/', `${dir}/`))
      const check = await run('promtool', ['check', 'config', join(dir, 'prometheus.yml')], {
        cwd: dir,
      })
      expect(check.code, check.output).toBe(0)
      expect(check.output).toContain('1 rule files found')
      const scrape = parse(config) as {
        scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[]
      }
      const targets = scrape.scrape_configs.flatMap((job) =>
        job.static_configs.flatMap((s) => s.targets),
      )
      expect(targets.sort()).toEqual(
        apis
          .map(([name, service]) => `${name}:${service.environment?.PETSTORE_METRICS_PORT}`)
          .sort(),
      )
    },
  )
})
