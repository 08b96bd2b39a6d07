/**
 * JSDoc tags for the operations below `stable`. openapi-typescript copies an operation's summary
 * and description into the JSDoc of `paths` but not its `x-stability-level`, so an editor would
 * say an operation is beta only if its description happened to. Each such operation gets a
 * TSDoc release tag (`@beta`, `@alpha`, `@experimental` for `draft`) on its method in `paths`
 * and on its entry in `operations`: what a hover over `client.POST('/store/orders')`'s types
 * and API Extractor-style tooling read.
 *
 * @see https://tsdoc.org/pages/tags/beta/
 */
import { lifecycleOf, operationsOf, type StabilityLevel } from '@petstore/types/openapi/source'
import ts from 'typescript'

type Unstable = Exclude<StabilityLevel, 'stable'>

/** The TSDoc release tag of each level below `stable`. */
const stabilityTags: Readonly<Record<Unstable, string>> = {
  draft: 'experimental',
  alpha: 'alpha',
  beta: 'beta',
}

/** The tag line an operation at `level` carries. */
const stabilityLine = (level: Unstable) =>
  `@${stabilityTags[level]} \`x-stability-level: ${level}\`: may still change in ways that break clients before it is declared stable.`

/** The operations below `stable`, with where they are and their level. */
function unstableOperations(
  document: unknown,
): { path: string; method: string; operationId: string; level: Unstable }[] {
  const found = []
  for (const { path, method, operation } of operationsOf(document as Record<string, unknown>)) {
    const level = lifecycleOf(operation).stability
    if (level === undefined || level === 'stable' || typeof operation.operationId !== 'string')
      continue
    found.push({ path, method, operationId: operation.operationId, level })
  }
  return found
}

const nameOf = (member: ts.TypeElement) =>
  member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))
    ? member.name.text
    : undefined

const membersOf = (nodes: readonly ts.Node[], name: string) =>
  nodes.find(
    (node): node is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(node) && node.name.text === name,
  )?.members ?? []

/** Adds `line` at the end of `node`'s JSDoc (openapi-typescript's synthetic comment), or as one. */
function appendToJsDoc(node: ts.Node, line: string): void {
  const comments = ts.getSyntheticLeadingComments(node) ?? []
  const jsDoc = comments.findLast(
    (comment) =>
      comment.kind === ts.SyntaxKind.MultiLineCommentTrivia && comment.text.startsWith('*'),
  )
  // openapi-typescript writes `* one line ` or `*\n * line\n * line\n `.
  const body = jsDoc?.text.slice(1) ?? ''
  const lines = body.startsWith('\n')
    ? body
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((text) => text.replace(/^\s*\* ?/, '').trimEnd())
    : [body.trim()].filter((text) => text !== '')
  lines.push(line)
  const text = `*\n * ${lines.join('\n * ')}\n `
  ts.setSyntheticLeadingComments(node, [
    ...comments.filter((comment) => comment !== jsDoc),
    {
      kind: ts.SyntaxKind.MultiLineCommentTrivia,
      text,
      hasTrailingNewLine: true,
      pos: -1,
      end: -1,
    },
  ])
}

/** Tags each operation below `stable` in `paths` and `operations` of openapi-typescript's AST. */
export function tagUnstableOperations(nodes: readonly ts.Node[], document: unknown): void {
  const unstable = unstableOperations(document)
  if (unstable.length === 0) return
  const paths = membersOf(nodes, 'paths')
  const operations = membersOf(nodes, 'operations')
  for (const { path, method, operationId, level } of unstable) {
    const item = paths.find((member) => nameOf(member) === path)
    const methods =
      item && ts.isPropertySignature(item) && item.type && ts.isTypeLiteralNode(item.type)
        ? item.type.members
        : []
    const targets = [
      methods.find((member) => nameOf(member) === method),
      operations.find((member) => nameOf(member) === operationId),
    ]
    if (targets.includes(undefined))
      throw new Error(
        `${method} ${path} (${operationId}) is missing from openapi-typescript's output`,
      )
    for (const target of targets) if (target) appendToJsDoc(target, stabilityLine(level))
  }
}
