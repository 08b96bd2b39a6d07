/**
 * `pnpm release` runs this before publishing: `pnpm audit --prod --audit-level high --json` over
 * the workspace, judged for the published packages only. pnpm audits every importer of the
 * lockfile at once (it has no filter), so an advisory counts when one of its paths starts at a
 * published package (`packages__server>fastify>…`); one reached only from a private package is
 * listed but does not stop the release.
 *
 * Exit codes: 0 no high or critical advisory, 1 some (listed), 2 no verdict: the audit service
 * could not be reached or answered something unreadable. Never 0 without a report.
 *
 * @example
 * ```sh
 * pnpm --filter @petstore/scripts run audit:published [--registry https://registry.npmjs.org/]
 * ```
 */
import { execFile } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { publishedPackages, workspaceRoot } from './workspace.js'

const severities = ['info', 'low', 'moderate', 'high', 'critical'] as const
export type Severity = (typeof severities)[number]

export interface Advisory {
  module: string
  severity: Severity
  title: string
  url: string
  /** Dependency paths as pnpm reports them, e.g. `packages__server>fastify>find-my-way`. */
  paths: string[]
}

export type AuditOutcome =
  | { kind: 'unreachable'; reason: string }
  | { kind: 'report'; blocking: Advisory[]; elsewhere: Advisory[] }

interface PnpmAuditJson {
  error?: { code?: string; message?: string }
  advisories?: Record<
    string,
    {
      module_name: string
      severity: string
      title: string
      url: string
      findings?: { paths?: string[] }[]
    }
  >
}

/** pnpm's name for a lockfile importer in audit paths (`packages/server` -> `packages__server`). */
export const auditName = (importerId: string): string => importerId.replace(/\//g, '__')

/**
 * Reads what `pnpm audit --json` printed: its report, or its error when the service did not
 * answer. Advisories below high are ignored; the others are blocking when a path of theirs
 * starts at one of `importerIds`.
 */
export function readAuditOutput(stdout: string, importerIds: readonly string[]): AuditOutcome {
  let output: PnpmAuditJson
  try {
    output = JSON.parse(stdout) as PnpmAuditJson
  } catch {
    return { kind: 'unreachable', reason: `pnpm audit printed no JSON: ${firstLine(stdout)}` }
  }
  if (output.error !== undefined) {
    const { code, message } = output.error
    return { kind: 'unreachable', reason: `${code ?? 'error'}: ${message ?? 'no message'}` }
  }
  if (output.advisories === undefined || typeof output.advisories !== 'object') {
    return { kind: 'unreachable', reason: 'pnpm audit printed JSON without advisories' }
  }
  const prefixes = importerIds.map((id) => `${auditName(id)}>`)
  const blocking: Advisory[] = []
  const elsewhere: Advisory[] = []
  for (const raw of Object.values(output.advisories)) {
    const severity = severities.includes(raw.severity as Severity)
      ? (raw.severity as Severity)
      : 'critical'
    if (severities.indexOf(severity) < severities.indexOf('high')) continue
    const advisory: Advisory = {
      module: raw.module_name,
      severity,
      title: raw.title,
      url: raw.url,
      paths: (raw.findings ?? []).flatMap((finding) => finding.paths ?? []),
    }
    const published = advisory.paths.some((path) => prefixes.some((p) => path.startsWith(p)))
    ;(published ? blocking : elsewhere).push(advisory)
  }
  return { kind: 'report', blocking, elsewhere }
}

/** The verdict as an exit code and the text to print. */
export function verdict(
  outcome: AuditOutcome,
  packageNames: readonly string[],
): { code: 0 | 1 | 2; text: string } {
  if (outcome.kind === 'unreachable') {
    return {
      code: 2,
      text: [
        'audit: no verdict: the audit service could not be reached or gave no report, so the',
        'published packages are NOT checked. Run `pnpm audit --prod` again when the registry',
        'answers, or review the advisories of the runtime dependencies yourself before publishing.',
        `  ${outcome.reason}`,
      ].join('\n'),
    }
  }
  const lines: string[] = []
  if (outcome.blocking.length === 0) {
    lines.push(
      `audit: no high or critical advisory in the runtime dependencies of ${packageNames.join(', ')}`,
    )
  } else {
    lines.push(
      `audit: ${outcome.blocking.length} high or critical advisor${outcome.blocking.length === 1 ? 'y' : 'ies'} in the published packages:`,
      ...outcome.blocking.flatMap(describe),
    )
  }
  if (outcome.elsewhere.length > 0) {
    lines.push(
      'reached only from private packages (not published, not blocking):',
      ...outcome.elsewhere.flatMap(describe),
    )
  }
  return { code: outcome.blocking.length === 0 ? 0 : 1, text: lines.join('\n') }
}

function describe(advisory: Advisory): string[] {
  const via = [...new Set(advisory.paths)].slice(0, 3).map((path) => `      via ${path}`)
  return [`  ${advisory.severity} ${advisory.module}: ${advisory.title} (${advisory.url})`, ...via]
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 200) || '(empty output)'
}

/** Runs `pnpm audit` at the workspace root and judges it for the published packages. */
export async function auditPublished(
  options: { registry?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: 0 | 1 | 2; text: string }> {
  const packages = publishedPackages()
  const args = ['audit', '--prod', '--audit-level', 'high', '--json']
  if (options.registry !== undefined) args.push('--registry', options.registry)
  // pnpm exits 1 both for advisories and for a failed request: the JSON tells them apart.
  const stdout = await new Promise<string>((resolve) => {
    execFile(
      'pnpm',
      args,
      { cwd: workspaceRoot, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => resolve(out.trim() === '' && error !== null ? `${err}` : out),
    )
  })
  const outcome = readAuditOutput(
    stdout,
    packages.map((pkg) => pkg.importerId),
  )
  return verdict(
    outcome,
    packages.map((pkg) => pkg.manifest.name),
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { registry: { type: 'string' } } })
  const { code, text } = await auditPublished({ registry: values.registry })
  ;(code === 0 ? process.stdout : process.stderr).write(`${text}\n`)
  process.exitCode = code
}
