#!/usr/bin/env node
// Entry point of `npm run verify`; everything else is in cli-run.ts.
import { runCli } from './cli-run.ts';

process.exitCode = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
