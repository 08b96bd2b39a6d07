#!/usr/bin/env node
// A committed shim, so package managers can link the bin before dist/ is built.
import '../dist/cli/main.js'
