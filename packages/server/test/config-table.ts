/**
 * The README's configuration table, made from `configTable` (src/config.ts): one line per row,
 * in the table's order. `test/config.test.ts` fails, naming the variable, when the README
 * differs; `pnpm --filter @petstore/server run readme:config` rewrites the table.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { type ConfigRow, configTable } from '../src/config.js'

export const readmePath = new URL('../README.md', import.meta.url)

const header = ['Variable', 'Default', 'Meaning'] as const

/** How a row's default reads: its `shownDefault`, `unset`, or the value in code. */
function shownDefault(row: ConfigRow<unknown>): string {
  if (row.shownDefault !== undefined) return row.shownDefault
  if (row.default === undefined) return 'unset'
  return `\`${String(row.default)}\``
}

/** The cells of each row, by variable name. */
export function configTableCells(): ReadonlyMap<string, readonly string[]> {
  return new Map(
    Object.values(configTable).map((row: ConfigRow<unknown>) => [
      row.variable,
      [`\`${row.variable}\``, shownDefault(row), row.doc],
    ]),
  )
}

/** The whole Markdown table, columns padded as the formatter leaves them. */
export function renderConfigTable(): string {
  const rows = [header, ...configTableCells().values()]
  const widths = header.map((_, column) =>
    Math.max(...rows.map((cells) => cells[column]?.length ?? 0)),
  )
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`
  return [
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.slice(1).map(line),
  ].join('\n')
}

/** The README's configuration table as it is now: from its header line to the first blank line. */
export function readmeConfigTable(readme: string): { start: number; end: number; text: string } {
  const start = readme.indexOf('| Variable ')
  if (start < 0)
    throw new Error('README.md has no configuration table ("| Variable | Default | Meaning |")')
  const blank = readme.indexOf('\n\n', start)
  const end = blank < 0 ? readme.length : blank
  return { start, end, text: readme.slice(start, end) }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const readme = readFileSync(readmePath, 'utf8')
  const { start, end } = readmeConfigTable(readme)
  writeFileSync(readmePath, readme.slice(0, start) + renderConfigTable() + readme.slice(end))
}
