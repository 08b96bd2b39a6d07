/**
 * The forms of a diff a pull request shows: Markdown (a table per operation: what changed,
 * breaking or not, why, what a client must do; then the release's requirements) and GitHub
 * workflow commands (one annotation per change, on the spec's line).
 */
import type { Change } from './change.js'
import { type DiffResult, summaryLine } from './report.js'
import { RULES } from './rules.js'

/** `METHOD /path` of a location, and the rest of it. */
function split(location: string): [operation: string, rest: string] {
  const [method = '', path = '', ...rest] = location.split(' ')
  return [`${method} ${path}`, rest.join(' ')]
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

function clientAction(change: Change): string {
  if (change.kind === 'non-breaking')
    return change.allowedBy ? `nothing yet (${change.allowedBy})` : 'nothing'
  return RULES[change.rule]?.clientAction || 'review it'
}

export function markdownReport(result: DiffResult, release?: string): string {
  const lines = [`### ${summaryLine(result)}`, '']
  if (release !== undefined) lines.push(`**${release.replace(/^release: /, 'Release: ')}**`, '')
  const byOperation = new Map<string, Change[]>()
  for (const change of result.changes) {
    const [operation] = split(change.location)
    byOperation.set(operation, [...(byOperation.get(operation) ?? []), change])
  }
  for (const [operation, changes] of byOperation) {
    lines.push(`#### \`${operation}\``, '')
    lines.push(
      '| | change | where | why | what a client must do |',
      '| --- | --- | --- | --- | --- |',
    )
    for (const change of changes) {
      const [, where] = split(change.location)
      const kind = change.kind === 'breaking' ? '**breaking**' : 'non-breaking'
      lines.push(
        `| ${kind} | \`${change.rule}\` | ${cell(where || '(the operation)')} | ${cell(change.message)} | ${cell(clientAction(change))} |`,
      )
    }
    lines.push('')
  }
  return `${lines.join('\n')}\n`
}

/** Workflow command escaping: https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts */
const escapeData = (text: string) =>
  text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')
const escapeProperty = (text: string) =>
  escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C')

/**
 * @param file the edited spec as the repository names it, e.g. `spec/openapi.yaml`
 * @param lineOf the line of the edited spec a change's location points at (`source-lines.ts`)
 */
export function githubReport(
  result: DiffResult,
  file: string,
  lineOf: (location: string) => number,
): string {
  const lines = result.changes.map((change) => {
    const level = change.kind === 'breaking' ? 'error' : 'notice'
    const title = `spec:diff ${change.kind} ${change.rule}`
    const action = change.kind === 'breaking' ? ` Clients must: ${clientAction(change)}.` : ''
    const allowed = change.allowedBy ? ` Needs no major: ${change.allowedBy}.` : ''
    const properties = `file=${escapeProperty(file)},line=${lineOf(change.location)},title=${escapeProperty(title)}`
    return `::${level} ${properties}::${escapeData(`${change.location}: ${change.message}.${action}${allowed}`)}`
  })
  return `${[`::notice title=spec%3Adiff::${escapeData(summaryLine(result))}`, ...lines].join('\n')}\n`
}
