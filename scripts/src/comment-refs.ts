/**
 * Finds comments in the TypeScript sources that name a file or a symbol that does not exist: a
 * comment is code, and one that points at a renamed module or a deleted function misleads the
 * next reader. What counts as a reference:
 *
 * - a path: a backticked or bare name with a file extension (`store/store.ts`, `README.md`), or
 *   a backticked directory (`sqlite/`). It exists when it resolves beside the file, in one of its
 *   ancestor directories (its package, the repository) or, unless it starts with `./` or `../`,
 *   as the end of any path in the repository (a module named from another package). A `.js`
 *   import specifier may name its `.ts` source, `dist/` its `src/`, and `@petstore/x/` is
 *   `packages/x/`. A name with no `/` whose stem is capitalized and whose extension is `js` or
 *   `json` is prose (`Node.js`) or a property (`Page.json`), not a path, and one with `x` for a
 *   name is a placeholder.
 * - a symbol: a backticked identifier, or a dotted chain of them, whose parts look like code
 *   (camel case with a capital inside, or Pascal case of two words or more: plain words and
 *   all-capital settings are left alone), or a `{@link Name}`. It exists when the TypeScript
 *   compiler meets that name anywhere in the program the sources make, libraries included
 *   (declared there, or used, so declared where the typecheck found it), or as a string that is
 *   a name (an event, a hook, a property key).
 * - a call of such a name in an `@example` code block: what a reader copies, so the name must be
 *   exported by a source, declared by a library, or declared in the same file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'
import ts from 'typescript'

export interface StaleReference {
  /** The file, relative to the root, with `/` separators. */
  file: string
  line: number
  /** `example`: a call in an `@example` of a name neither exported nor declared in the file. */
  kind: 'path' | 'symbol' | 'example'
  name: string
}

export interface CommentCheckOptions {
  /** References known not to resolve, by name, each with the reason why that is right. */
  allow?: Readonly<Record<string, string>>
}

/**
 * Directories never scanned nor resolved against: installed, built or tool state, and the test
 * output directories git ignores, where other suites create and delete files while this one
 * reads the tree.
 */
const skippedDirectories = new Set([
  'node_modules',
  'dist',
  '.git',
  '.turbo',
  'coverage',
  'test-output',
])

/**
 * Directories whose sources are not checked: test inputs (written to be wrong, or to stand for
 * someone else's code) and generated code (its comments are the spec's descriptions).
 */
const uncheckedDirectories = new Set(['fixtures', 'generated'])

const pathExtensions = 'ts|tsx|mts|cts|js|mjs|cjs|json|md|yaml|yml|sh|html|css'
const filePath = new RegExp(
  `^(?:\\.{1,2}/)*[\\w@-][\\w@.-]*(?:/[\\w@.-]+)*\\.(?:${pathExtensions})$`,
)
const directoryPath = /^(?:\.{1,2}\/)*[\w@-][\w@.-]*(?:\/[\w@.-]+)*\/$/
const barePath = new RegExp(
  `(?<![\\w/.@\`-])((?:\\.{1,2}/)*[\\w@-][\\w@-]*(?:\\.[\\w@-]+)*(?:/[\\w@.-]+)*\\.(?:${pathExtensions}))(?![\\w/-])`,
  'g',
)
const identifierChain = /^[A-Za-z_$][\w$]*(?:[.#][A-Za-z_$][\w$]*)*(?:\(\))?$/
const camelCase = /^[a-z_$][a-z0-9_$]*[A-Z][A-Za-z0-9_$]*$/
const pascalCase = /^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/

/**
 * `Node.js`, `Page.json`: a word or a property, though written like a file name; `./x.js`,
 * `packages/x/`: a placeholder in an explanation.
 */
const isProse = (path: string) =>
  /^[A-Z][\w]*\.(?:js|json)$/.test(path) || /(?:^|\/)x(?:\/|\.|$)/.test(path)

/** Whether a part of a backticked chain is written as code names are, not as a word. */
function looksLikeSymbol(name: string): boolean {
  return camelCase.test(name) || pascalCase.test(name)
}

/** Every `.ts` file under `root` that is checked, relative with `/` separators, sorted. */
function checkedSources(root: string): string[] {
  return walk(root, root)
    .filter((file) => /\.(?:ts|tsx|mts|cts)$/.test(file))
    .filter((file) => !file.split('/').some((part) => uncheckedDirectories.has(part)))
    .sort()
}

function walk(root: string, dir: string): string[] {
  const found: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skippedDirectories.has(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(`${toPosix(relative(root, path))}/`, ...walk(root, path))
    else found.push(toPosix(relative(root, path)))
  }
  return found
}

const toPosix = (path: string) => path.split(sep).join('/')

/** One comment's text and the line it starts on (1-based). */
interface Comment {
  text: string
  line: number
}

/** Every comment of a source file, each once, in order. */
function commentsOf(fileName: string, text: string): Comment[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false)
  const seen = new Map<number, Comment>()
  const add = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue
      const line = source.getLineAndCharacterOfPosition(range.pos).line + 1
      seen.set(range.pos, { text: text.slice(range.pos, range.end), line })
    }
  }
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()))
    add(ts.getTrailingCommentRanges(text, node.getEnd()))
    for (const child of node.getChildren(source)) visit(child)
  }
  visit(source)
  return [...seen.values()].sort((a, b) => a.line - b.line)
}

/** A reference found in a comment: what it names, and on which line of the file. */
interface Reference {
  kind: 'path' | 'symbol'
  name: string
  line: number
  /** Called in an example: what a reader copies, so it must be importable or declared there. */
  inExample?: true
}

/** The paths and symbols a comment names, each with its own line. */
function referencesIn(comment: Comment): Reference[] {
  const found: Reference[] = []
  const lines = comment.text.split('\n')
  let fenced = false
  let declaredInBlock = new Set<string>()
  lines.forEach((raw, index) => {
    const line = comment.line + index
    const text = raw.replace(/https?:\/\/\S+/g, ' ')
    if (/^\s*\*?\s*```/.test(text)) {
      fenced = !fenced
      declaredInBlock = new Set()
      return
    }
    if (fenced) {
      for (const m of text.matchAll(/\b(?:const|let|var|function|class)\s+([A-Za-z_$][\w$]*)/g)) {
        declaredInBlock.add(m[1] as string)
      }
      for (const m of text.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(/g)) {
        const name = m[1] as string
        if (looksLikeSymbol(name) && !declaredInBlock.has(name)) {
          found.push({ kind: 'symbol', name, line, inExample: true })
        }
      }
      return
    }
    for (const m of text.matchAll(/\{@link\s+([\w$.#]+)/g)) {
      for (const part of (m[1] as string).split(/[.#]/)) {
        if (looksLikeSymbol(part)) found.push({ kind: 'symbol', name: part, line })
      }
    }
    for (const m of text.matchAll(/`([^`]+)`/g)) {
      const span = (m[1] as string).trim()
      const path = span.replace(/(?::\d+(?:-\d+)?|#[\w-]+)$/, '')
      if ((filePath.test(path) || directoryPath.test(path)) && !isProse(path)) {
        found.push({ kind: 'path', name: path, line })
      } else if (identifierChain.test(span)) {
        for (const part of span.replace(/\(\)$/, '').split(/[.#]/)) {
          if (looksLikeSymbol(part)) found.push({ kind: 'symbol', name: part, line })
        }
      }
    }
    for (const m of text.replace(/`[^`]*`/g, ' ').matchAll(barePath)) {
      const path = m[1] as string
      if (!isProse(path)) found.push({ kind: 'path', name: path, line })
    }
  })
  return found
}

/** The names a comment may use, from the program its sources make. */
interface ProgramNames {
  /**
   * Every identifier the compiler meets, in the sources, the libraries they import and the
   * standard library, and every string that is a name.
   */
  anywhere: Set<string>
  /** What an example can reach: the libraries' declarations and the sources' exports. */
  importable: Set<string>
}

function programNames(root: string, files: readonly string[]): ProgramNames {
  const program = ts.createProgram({
    rootNames: files.map((file) => join(root, file)),
    options: {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      noEmit: true,
      skipLibCheck: true,
    },
  })
  const anywhere = new Set<string>()
  const importable = new Set<string>()
  for (const source of program.getSourceFiles()) {
    const names = identifiersOf(source)
    for (const name of names) anywhere.add(name)
    if (source.isDeclarationFile) for (const name of names) importable.add(name)
    else for (const name of exportsOf(source)) importable.add(name)
  }
  return { anywhere, importable }
}

/** Every identifier of `node`, and every string literal that is a name. */
function identifiersOf(node: ts.Node, names = new Set<string>()): Set<string> {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) names.add(node.text)
  else if (ts.isStringLiteralLike(node) && /^[A-Za-z_$][\w$]*$/.test(node.text)) {
    names.add(node.text)
  }
  ts.forEachChild(node, (child) => {
    identifiersOf(child, names)
  })
  return names
}

/** The names a module exports: its exported declarations and its export lists. */
function exportsOf(source: ts.SourceFile): string[] {
  const names: string[] = []
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause
      if (clause !== undefined && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.push(element.name.text)
      }
      continue
    }
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false
    if (!exported) continue
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text)
      }
    } else if ('name' in statement && statement.name !== undefined) {
      const name = statement.name as ts.Node
      if (ts.isIdentifier(name)) names.push(name.text)
    }
  }
  return names
}

/** Resolves `name` (a path a comment in `file` gives) against the repository's `paths`. */
function pathExists(root: string, file: string, name: string, paths: ReadonlySet<string>) {
  const candidates = [name.replace(/^@petstore\/([\w-]+)\//, 'packages/$1/')]
  if (name.endsWith('.js')) candidates.push(name.replace(/\.js$/, '.ts'))
  if (name.startsWith('dist/')) {
    candidates.push(
      ...candidates.map((c) => c.replace(/^dist\//, 'src/').replace(/\.d\.ts$/, '.ts')),
    )
  }
  const relativeOnly = name.startsWith('./') || name.startsWith('../')
  for (const candidate of candidates) {
    let dir = posix.dirname(file)
    for (;;) {
      const path = posix.normalize(posix.join(dir, candidate))
      if (!path.startsWith('../') && existsSync(join(root, path))) return true
      if (relativeOnly || dir === '.') break
      dir = posix.dirname(dir)
    }
    if (relativeOnly) continue
    const tail = `/${candidate}`
    for (const path of paths) if (path.endsWith(tail) || path === candidate) return true
  }
  return false
}

/**
 * The references in the comments of `files` (default: every checked source under `root`) that
 * name a file or a symbol that does not exist, in file and line order.
 */
export function staleReferences(
  root: string,
  options: CommentCheckOptions & { files?: readonly string[] } = {},
): StaleReference[] {
  const files = options.files ?? checkedSources(root)
  const paths = new Set(walk(root, root))
  const names = programNames(root, files)
  const allow = options.allow ?? {}
  const stale: StaleReference[] = []
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    let ownNames: Set<string> | undefined
    const symbolExists = (reference: Reference) => {
      if (reference.inExample === undefined) return names.anywhere.has(reference.name)
      ownNames ??= identifiersOf(ts.createSourceFile(file, text, ts.ScriptTarget.Latest))
      return names.importable.has(reference.name) || ownNames.has(reference.name)
    }
    for (const comment of commentsOf(file, text)) {
      for (const reference of referencesIn(comment)) {
        const { name, line } = reference
        if (Object.hasOwn(allow, name)) continue
        const exists =
          reference.kind === 'path' ? pathExists(root, file, name, paths) : symbolExists(reference)
        const kind = reference.inExample ? 'example' : reference.kind
        if (!exists) stale.push({ file, line, kind, name })
      }
    }
  }
  return stale
}

const what = {
  path: 'names a path that does not exist',
  symbol: 'names a symbol that does not exist',
  example: 'calls in an example a name that is neither exported nor declared in the file',
} as const

/** One line per reference: `file:line: the comment names a path that does not exist: \`name\``. */
export function describeStale(stale: readonly StaleReference[]): string {
  return stale
    .map((s) => `${s.file}:${s.line}: the comment ${what[s.kind]}: \`${s.name}\``)
    .join('\n')
}
