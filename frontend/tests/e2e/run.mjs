// Starts the end-to-end tests (e2e.mjs, or the feature suite named by E2E_SCRIPT, a
// frontend/tests/e2e/*.e2e.mjs file that reports its own suite as e2e-<name>):
//   make test-e2e            (builds build/bin/engram-cli first, runs every suite)
//   ENGRAM_CLI=path [E2E_SCRIPT=file] node frontend/tests/e2e/run.mjs [shotsDir]
// Node 20 has WebSocket (for the raw JSON-RPC client) behind a flag, 22+ by default: without
// it the tests run in a child node with the flag, and signals are passed on to it.
import { spawn } from 'node:child_process'

const script = process.env.E2E_SCRIPT ? new URL(process.env.E2E_SCRIPT, 'file://' + process.cwd() + '/').pathname : new URL('./e2e.mjs', import.meta.url).pathname
if (typeof WebSocket !== 'undefined') {
  await import(script)
} else {
  const child = spawn(process.execPath, ['--experimental-websocket', script, ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig))
  child.on('exit', (code, sig) => process.exit(code ?? (sig ? 128 : 1)))
}
