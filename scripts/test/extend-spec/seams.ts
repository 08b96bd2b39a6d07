/**
 * Adds an entry to a table of the code, found by name (an object or array literal that a `const`
 * holds or a function returns), with TypeScript's parser rather than at a line of text: an edit
 * that keeps working while the code around the table changes, and fails naming the table when it
 * is gone.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

export interface SeamEdit {
  /** Relative to the workspace. */
  file: string
  /**
   * The `const` whose initializer, or the function whose returned value, is the table; or a
   * table inside one, by the names of the properties leading to it (`resources.pets.filters`),
   * through a call's first argument (`defineResource({...})`).
   */
  table: string
  /** The entry's text: `name: value`, `...spread` or an array element. */
  entry: string
  /** Import lines the entry needs, added after the file's last import. */
  imports?: string[]
}

type Table = ts.ObjectLiteralExpression | ts.ArrayLiteralExpression

function isTable(node: ts.Node | undefined): node is Table {
  return (
    node !== undefined && (ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node))
  )
}

/** `node` without `as`, `satisfies`, parentheses and a call around it (its first argument). */
function unwrap(node: ts.Expression): ts.Expression {
  let current = node
  for (;;) {
    if (
      ts.isAsExpression(current) ||
      ts.isSatisfiesExpression(current) ||
      ts.isParenthesizedExpression(current)
    ) {
      current = current.expression
    } else if (ts.isCallExpression(current) && current.arguments[0] !== undefined) {
      current = current.arguments[0]
    } else {
      return current
    }
  }
}

/** The table `path` names inside `table`, property by property. */
function descend(source: ts.SourceFile, table: Table, path: string[]): Table | undefined {
  let current: Table = table
  for (const name of path) {
    if (!ts.isObjectLiteralExpression(current)) return undefined
    const property = current.properties.find(
      (p): p is ts.PropertyAssignment =>
        ts.isPropertyAssignment(p) && p.name.getText(source) === name,
    )
    const value = property === undefined ? undefined : unwrap(property.initializer)
    if (!isTable(value)) return undefined
    current = value
  }
  return current
}

function findTable(source: ts.SourceFile, path: string): Table | undefined {
  const [name, ...inside] = path.split('.')
  const root = findRootTable(source, name as string)
  return root === undefined ? undefined : descend(source, root, inside)
}

function findRootTable(source: ts.SourceFile, name: string): Table | undefined {
  let found: Table | undefined
  const visit = (node: ts.Node): void => {
    if (found !== undefined) return
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === name && node.initializer) {
      const value = unwrap(node.initializer)
      if (isTable(value)) found = value
    }
    if (ts.isFunctionDeclaration(node) && node.name?.text === name && node.body) {
      for (const statement of node.body.statements) {
        if (ts.isReturnStatement(statement) && statement.expression) {
          const value = unwrap(statement.expression)
          if (isTable(value)) found = value
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

export function addEntry(workspace: string, edit: SeamEdit): void {
  const path = join(workspace, edit.file)
  let text = readFileSync(path, 'utf8')
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const table = findTable(source, edit.table)
  if (table === undefined) {
    throw new Error(
      `extend-spec fixture: ${edit.file} has no table \`${edit.table}\` (an object or array literal); update scripts/test/extend-spec/fixture.ts and the README's "Changing the spec" to match the code`,
    )
  }
  const elements = ts.isObjectLiteralExpression(table) ? table.properties : table.elements
  const close = table.getEnd() - 1
  const separator = elements.length === 0 || elements.hasTrailingComma ? '' : ','
  text = `${text.slice(0, close)}${separator}\n  ${edit.entry},\n${text.slice(close)}`
  if (edit.imports !== undefined) {
    const imports = source.statements.filter(ts.isImportDeclaration)
    const at = imports.length === 0 ? 0 : (imports.at(-1) as ts.ImportDeclaration).getEnd()
    text = `${text.slice(0, at)}\n${edit.imports.join('\n')}${text.slice(at)}`
  }
  writeFileSync(path, text)
}
