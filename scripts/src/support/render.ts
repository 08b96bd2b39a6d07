/**
 * `spec/SUPPORT.md`: the support table (table.ts) as a reader sees it, rendered by `pnpm generate`
 * from the rows that `pnpm generate` and `pnpm lint` enforce.
 */
import { supportTable } from './table.js'

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

export function renderSupportTable(): string {
  return [
    '<!-- GENERATED from scripts/src/support/table.ts by `pnpm generate`. Do not edit by hand. -->',
    '',
    '# What the spec may declare',
    '',
    'Every construct below works end to end: in the server (validation, storage, headers), the',
    'typed client and the rendered docs. `pnpm generate` and `pnpm lint` refuse a spec that uses',
    'anything else, naming the construct, where it is and the row of this table, so a spec edit',
    'either works everywhere or stops at generation.',
    '',
    '| row | construct | supported | handled by |',
    '| --- | --- | --- | --- |',
    ...supportTable.map(
      (row) =>
        `| \`${row.id}\` | ${cell(row.construct)} | ${cell(row.supported)} | ${cell(row.handledBy)} |`,
    ),
    '',
  ].join('\n')
}
