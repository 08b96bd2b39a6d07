/**
 * `pnpm bench`: runs the bench, prints the report, and in full mode writes it to its own file
 * (outputs.ts: RESULTS.md, RESULTS-SCALE-OUT.md), never to the notes. The root script builds the
 * server and the client first.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs, UsageError, usage } from './args.js'
import { runBench } from './bench.js'
import { packageRoot, reportPath } from './outputs.js'
import { fullPlan, quickPlan } from './plan.js'
import { renderProfile, summarizeProfile } from './profile.js'
import { renderReport } from './report.js'
import { renderScaleOutReport, runScaleOutBench } from './scale-out.js'
import { renderSpecDiffReport, runSpecDiffBench } from './spec-diff.js'

async function main(): Promise<number> {
  let args: ReturnType<typeof parseArgs>
  let out: string | undefined
  try {
    args = parseArgs(process.argv.slice(2))
    out = reportPath(args.specDiff ? 'specDiff' : args.scaleOut ? 'scaleOut' : 'bench', args)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`bench: ${error.message}\n${usage}\n`)
    return 2
  }
  if (args.help) {
    process.stdout.write(`${usage}\n`)
    return 0
  }
  if (args.specDiff) {
    const report = renderSpecDiffReport(runSpecDiffBench(resolve(packageRoot, '../..')))
    process.stdout.write(report)
    if (out !== undefined) writeFileSync(out, report)
    return 0
  }
  const serverDir =
    args.server === undefined
      ? dirname(createRequire(import.meta.url).resolve('@petstore/server/package.json'))
      : resolve(args.server)
  if (!existsSync(join(serverDir, 'dist', 'server.js'))) {
    process.stderr.write(
      `bench: ${join(serverDir, 'dist', 'server.js')} does not exist (run \`pnpm bench\` from the repository root: it builds the server)\n`,
    )
    return 1
  }
  const workDir = mkdtempSync(join(tmpdir(), 'petstore-bench-'))
  const profileDir =
    args.profile === undefined
      ? undefined
      : resolve(args.profile === '' ? join(workDir, 'profiles') : args.profile)
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true })
  const log = (line: string) => process.stderr.write(`${line}\n`)
  if (args.scaleOut) {
    try {
      const report = renderScaleOutReport(
        await runScaleOutBench({ serverDir, workDir, quick: args.quick, soak: args.soak, log }),
      )
      process.stdout.write(`\n${report}`)
      if (out !== undefined) writeFileSync(out, report)
      return 0
    } finally {
      if (!args.keep) rmSync(workDir, { recursive: true, force: true })
    }
  }
  try {
    const result = await runBench({
      plan: args.quick ? quickPlan : fullPlan,
      serverDir,
      workDir,
      soak: args.soak,
      ...(profileDir === undefined ? {} : { profileDir }),
      log,
    })
    const report = renderReport(result)
    process.stdout.write(`\n${report}`)
    if (out !== undefined) {
      writeFileSync(out, report)
      log(`wrote ${out}`)
    }
    if (profileDir !== undefined) {
      for (const file of readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'))) {
        process.stdout.write(
          `\n${renderProfile(join(profileDir, file), summarizeProfile(join(profileDir, file)))}\n`,
        )
      }
    }
    return 0
  } finally {
    if (args.keep || profileDir?.startsWith(workDir)) log(`kept ${workDir}`)
    else rmSync(workDir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
