/**
 * The release's audit step. Its reading of pnpm's report is tested on a sample in the report's
 * format (test/fixtures/pnpm-audit-high.json; npm's audit service does not answer here, so no
 * live report can be recorded), and the whole step runs real `pnpm audit`: against a closed
 * loopback port (unreachable), and against a loopback registry that answers the audit request
 * with that sample.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditName, readAuditOutput, verdict } from '../src/audit.js'
import { withoutServiceVariables } from '../src/service-env.js'
import { workspaceRoot } from '../src/workspace.js'

const sample = readFileSync(new URL('./fixtures/pnpm-audit-high.json', import.meta.url), 'utf8')
const published = ['packages/client', 'packages/server', 'packages/types']
const names = ['@petstore/client', '@petstore/server', '@petstore/types']

describe('readAuditOutput and verdict', () => {
  it('blocks on a high advisory reached from a published package, and lists it', () => {
    const outcome = readAuditOutput(sample, published)
    expect(outcome).toMatchObject({
      kind: 'report',
      blocking: [{ module: 'fastify', severity: 'high' }],
      elsewhere: [{ module: 'autocannon', severity: 'critical' }],
    })
    const { code, text } = verdict(outcome, names)
    expect(code).toBe(1)
    expect(text).toContain('1 high or critical advisory in the published packages')
    expect(text).toContain('high fastify: Sample: fastify content-type parsing bypass')
    expect(text).toContain('via packages__server>fastify')
    expect(text).toContain('reached only from private packages')
    expect(text).not.toContain('pino')
  })

  it('passes when high and critical advisories reach private packages only', () => {
    const outcome = readAuditOutput(sample, ['packages/types'])
    expect(outcome).toMatchObject({ kind: 'report', blocking: [] })
    expect(verdict(outcome, ['@petstore/types']).code).toBe(0)
  })

  it('passes a clean report', () => {
    const clean = JSON.stringify({ advisories: {}, metadata: { vulnerabilities: {} } })
    const { code, text } = verdict(readAuditOutput(clean, published), names)
    expect(code).toBe(0)
    expect(text).toBe(
      'audit: no high or critical advisory in the runtime dependencies of @petstore/client, @petstore/server, @petstore/types',
    )
  })

  it.each([
    [
      'an error from the service',
      '{"error":{"code":"ERR_PNPM_AUDIT_BAD_RESPONSE","message":"responded with 405"}}',
      'ERR_PNPM_AUDIT_BAD_RESPONSE: responded with 405',
    ],
    ['no JSON', ' ERR_PNPM_SOMETHING  crashed\n', 'printed no JSON: ERR_PNPM_SOMETHING  crashed'],
    ['JSON without advisories', '{"metadata":{}}', 'without advisories'],
  ])('gives no verdict (exit 2) on %s', (_name, stdout, reason) => {
    const outcome = readAuditOutput(stdout, published)
    expect(outcome).toEqual({ kind: 'unreachable', reason: expect.stringContaining(reason) })
    const { code, text } = verdict(outcome, names)
    expect(code).toBe(2)
    expect(text).toContain('NOT checked')
  })

  it("names importers as pnpm's audit paths do", () => {
    expect(auditName('packages/server')).toBe('packages__server')
  })
})

const tsx = join(workspaceRoot, 'scripts', 'node_modules', '.bin', 'tsx')
const auditTs = join(workspaceRoot, 'scripts', 'src', 'audit.ts')

/**
 * The script the release runs (`audit:published`), started directly: under `pnpm run` the
 * inner pnpm would not see `npm_config_fetch_retries`, and its default retries wait over a
 * minute for a closed port.
 */
function runAudit(registry: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      [auditTs, '--registry', registry],
      {
        cwd: workspaceRoot,
        env: withoutServiceVariables(process.env, { npm_config_fetch_retries: '0' }),
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    )
  })
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  )
}

describe('the release step, with real pnpm audit', () => {
  let registry: Server
  let registryPort: number
  const received: { url: string; body: string }[] = []

  beforeAll(async () => {
    registry = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => {
        body += chunk
      })
      request.on('end', () => {
        received.push({ url: request.url ?? '', body })
        const audit = request.method === 'POST' && request.url === '/-/npm/v1/security/audits/quick'
        response.writeHead(audit ? 200 : 404, { 'content-type': 'application/json' })
        response.end(audit ? sample : '{}')
      })
    })
    registryPort = await listen(registry)
  })
  afterAll(() => new Promise<void>((resolve) => registry.close(() => resolve())))

  it('exits 2 and says so when the audit service cannot be reached', async () => {
    const closed = createServer()
    const port = await listen(closed)
    await new Promise((resolve) => closed.close(resolve))
    const result = await runAudit(`http://127.0.0.1:${port}/`)
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('NOT checked')
    expect(result.stderr).toContain('ECONNREFUSED')
  })

  it('exits 1 listing the advisory the registry reports for a published package', async () => {
    const result = await runAudit(`http://127.0.0.1:${registryPort}/`)
    expect(result.stderr).toContain('high fastify: Sample: fastify content-type parsing bypass')
    expect(result.code).toBe(1)
    // pnpm sent the whole workspace, each importer under the name the verdict looks for.
    const request = received.find((r) => r.url === '/-/npm/v1/security/audits/quick')
    const tree = JSON.parse(request?.body ?? '{}') as {
      dependencies: Record<string, { dependencies?: Record<string, unknown> }>
    }
    expect(Object.keys(tree.dependencies)).toEqual(
      expect.arrayContaining(['packages__client', 'packages__server', 'packages__types']),
    )
    expect(tree.dependencies.packages__server?.dependencies).toHaveProperty('fastify')
  })
})
