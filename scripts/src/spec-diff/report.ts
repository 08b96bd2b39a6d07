/**
 * The text and JSON forms of a diff (`report-formats.ts` has Markdown and GitHub annotations). The text's first line is the summary `pnpm dev` shows; the
 * release check's requirements (`releaseLine`), when given, follow it.
 */
import type { Change } from './change.js'
import { oasdiffIdsOf } from './oasdiff-ids.js'

export interface DiffResult {
  base: { file: string; version: string }
  head: { file: string; version: string }
  changes: Change[]
}

export const countOf = (changes: Change[], kind: Change['kind']) =>
  changes.filter((c) => c.kind === kind).length

/**
 * @example
 * summaryLine(result) // 'spec:diff: 1 breaking, 2 non-breaking change(s) against 1.0.0 (spec/released/openapi.yaml)'
 */
export function summaryLine({ base, changes }: DiffResult): string {
  const counts = `${countOf(changes, 'breaking')} breaking, ${countOf(changes, 'non-breaking')} non-breaking`
  return `spec:diff: ${counts} change(s) against ${base.version || '(no info.version)'} (${base.file})`
}

export function textReport(result: DiffResult, release?: string): string {
  const lines = [summaryLine(result), ...(release === undefined ? [] : [release])]
  for (const change of result.changes) {
    lines.push(`  ${change.kind.padEnd(12)} ${change.rule}  ${change.location}`)
    lines.push(`  ${' '.repeat(12)} ${change.message}`)
    if (change.allowedBy) lines.push(`  ${' '.repeat(12)} needs no major: ${change.allowedBy}`)
  }
  return `${lines.join('\n')}\n`
}

export function jsonReport(result: DiffResult, release?: object): string {
  const summary = {
    breaking: countOf(result.changes, 'breaking'),
    nonBreaking: countOf(result.changes, 'non-breaking'),
  }
  const { base, head } = result
  // Each change with the oasdiff rule id(s) it corresponds to, for tools that speak oasdiff.
  const changes = result.changes.map((change) => ({ ...change, oasdiff: oasdiffIdsOf(change) }))
  return `${JSON.stringify({ base, head, summary, ...(release && { release }), changes }, null, 2)}\n`
}
