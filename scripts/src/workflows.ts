/**
 * What the GitHub workflows (`.github/workflows/`, and the composite actions they use under
 * `.github/actions/`) may run and use. They cannot run here, so they are checked offline:
 *
 * - every `run:` line is a command a person can run from this repository: `pnpm <script>` of
 *   the root package.json, `pnpm --filter <package> <script>` of that package, or a command
 *   README.md shows verbatim (installing tools, `pnpm install --frozen-lockfile`): renaming a
 *   script fails naming the workflow line that calls it;
 * - every `uses:` of another repository is pinned to a full commit SHA, its version in a comment.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type Scalar } from 'yaml'

/** One line of a `run:` step, where it is. */
export interface RunCommand {
  /** Repository-relative, e.g. `.github/workflows/ci.yml`. */
  file: string
  line: number
  command: string
}

/** One `uses:`, where it is, and the comment after it. */
export interface ActionReference {
  file: string
  line: number
  uses: string
  comment: string
}

/** The workflows and composite actions of the repository at `root`, repository-relative. */
export function workflowFiles(root: string): string[] {
  const workflows = filesIn(join(root, '.github', 'workflows')).filter((file) =>
    /\.ya?ml$/.test(file),
  )
  const actions = readdirSafe(join(root, '.github', 'actions')).flatMap((name) =>
    filesIn(join(root, '.github', 'actions', name)).filter((file) =>
      /(^|\/)action\.ya?ml$/.test(file),
    ),
  )
  return [...workflows, ...actions].map((file) => relative(root, file)).sort()
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

function filesIn(dir: string): string[] {
  return readdirSafe(dir).map((name) => join(dir, name))
}

/** Every step's `run:`, one entry per non-empty line, with its line in `text`. */
export function runCommands(file: string, text: string): RunCommand[] {
  const lineCounter = new LineCounter()
  const document = parseDocument(text, { lineCounter })
  const found: RunCommand[] = []
  const visit = (node: Node | null | undefined): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : undefined
        if (key === 'run' && isScalar(pair.value) && typeof pair.value.value === 'string') {
          found.push(...linesOf(file, pair.value as Scalar<string>, lineCounter))
        } else {
          visit(pair.value as Node)
        }
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item as Node)
    }
  }
  visit(document.contents as Node)
  return found
}

function linesOf(file: string, scalar: Scalar<string>, lineCounter: LineCounter): RunCommand[] {
  const start = lineCounter.linePos(scalar.range?.[0] ?? 0).line
  // A block scalar (`run: |`) starts on the line after its indicator.
  const first =
    scalar.type === 'BLOCK_LITERAL' || scalar.type === 'BLOCK_FOLDED' ? start + 1 : start
  return scalar.value
    .split('\n')
    .map((command, index) => ({ file, line: first + index, command: command.trim() }))
    .filter(({ command }) => command !== '' && !command.startsWith('#'))
}

/** Every `uses:` line of `text`, with the comment that follows it. */
export function actionReferences(file: string, text: string): ActionReference[] {
  return text.split('\n').flatMap((line, index) => {
    const match = /^\s*(?:-\s+)?uses:\s*["']?([^\s"'#]+)["']?\s*(?:#\s*(.*))?$/.exec(line)
    return match
      ? [{ file, line: index + 1, uses: match[1] as string, comment: (match[2] ?? '').trim() }]
      : []
  })
}

/** Why `reference` is not pinned as it must be, or undefined when it is. */
export function unpinned({ uses, comment }: ActionReference): string | undefined {
  if (uses.startsWith('./')) return undefined
  if (uses.startsWith('docker://')) {
    return /@sha256:[0-9a-f]{64}$/.test(uses) ? undefined : 'a container image not pinned by digest'
  }
  const [, ref = ''] = uses.split('@')
  if (!/^[0-9a-f]{40}$/.test(ref)) return `not pinned to a full commit SHA (${ref || 'no ref'})`
  if (!/^v\d+(\.\d+)*$/.test(comment)) return 'no version comment (`# vX.Y.Z`) after the SHA'
  return undefined
}

/** What a `run:` line may name: the scripts of each package and the README's commands. */
export interface KnownCommands {
  /** The root package.json's scripts. */
  rootScripts: Record<string, string>
  /** Each workspace package's scripts, by package name. */
  packageScripts: Record<string, Record<string, string>>
  /** Every command README.md shows: code-block lines and inline code. */
  readmeCommands: Set<string>
}

/** pnpm's own commands: never a script's name (`pnpm install` installs, whatever package.json says). */
const pnpmCommands = new Set([
  'add',
  'audit',
  'dlx',
  'exec',
  'i',
  'install',
  'link',
  'outdated',
  'pack',
  'publish',
  'rebuild',
  'remove',
  'store',
  'update',
  'why',
])

/**
 * Why `command` is not a command of this repository, or undefined when it is. A `pnpm` line
 * that names a script must name an existing one (the README mentioning it is not enough: a
 * renamed script is what this catches); anything else must be shown verbatim by README.md.
 */
export function unknownCommand(command: string, known: KnownCommands): string | undefined {
  const words = command.split(/\s+/)
  if (words[0] === 'pnpm') {
    let at = 1
    while (words[at] === '--silent' || words[at] === '-s') at++
    if (words[at] === '--filter' || words[at] === '-F') {
      const name = words[at + 1] ?? ''
      const script = words[at + 2] === 'run' ? words[at + 3] : words[at + 2]
      const scripts = known.packageScripts[name]
      if (scripts === undefined) return `no workspace package is named ${name}`
      if (script === undefined || !(script in scripts)) {
        return `${name} has no script "${script ?? ''}" (its scripts: ${Object.keys(scripts).join(', ')})`
      }
      return undefined
    }
    const script = words[at] === 'run' ? words[at + 1] : words[at]
    if (script !== undefined && !pnpmCommands.has(script)) {
      return script in known.rootScripts
        ? undefined
        : `package.json has no script "${script}" (its scripts: ${Object.keys(known.rootScripts).join(', ')})`
    }
  }
  return known.readmeCommands.has(command)
    ? undefined
    : 'neither a package.json script nor a command README.md shows'
}

/** The commands a Markdown document shows: each line of its fenced blocks, and its inline code. */
export function markdownCommands(markdown: string): Set<string> {
  const commands = new Set<string>()
  const fenced = /^```[^\n]*\n([\s\S]*?)^```/gm
  for (const block of markdown.matchAll(fenced)) {
    for (const line of (block[1] as string).split('\n')) {
      if (line.trim() !== '') commands.add(line.trim())
    }
  }
  for (const code of markdown.replace(fenced, '').matchAll(/`([^`\n]+)`/g)) {
    commands.add((code[1] as string).trim())
  }
  return commands
}

/** The scripts of every package under `packages/` and `scripts/`, by package name. */
export function workspaceScripts(root: string): Record<string, Record<string, string>> {
  const dirs = [
    ...readdirSafe(join(root, 'packages')).map((name) => join(root, 'packages', name)),
    join(root, 'scripts'),
  ]
  const scripts: Record<string, Record<string, string>> = {}
  for (const dir of dirs) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name: string
        scripts?: Record<string, string>
      }
      scripts[manifest.name] = manifest.scripts ?? {}
    } catch {
      // Not a package.
    }
  }
  return scripts
}
