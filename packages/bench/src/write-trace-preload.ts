/**
 * Loaded with `node --import` (write-trace.ts `writeTraceImport`) into a process whose write
 * path is measured: records its trace into the file named by this module's `trace` parameter.
 */
import { recordWriteTrace } from './write-trace.js'

const path = new URL(import.meta.url).searchParams.get('trace')
if (path === null) throw new Error(`${import.meta.url}: no ?trace=<file> to write the trace to`)
recordWriteTrace(path)
