#!/usr/bin/env node
/** `petstore` / `pnpm petstore`: operator commands on the configured store (see run.ts). */
import { runCli } from './run.js'

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
})
