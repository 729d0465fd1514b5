// Starts the end-to-end tests (e2e.mjs):
//   make test-e2e            (builds build/bin/engram-cli first)
//   ENGRAM_CLI=path node frontend/tests/e2e/run.mjs [shotsDir]
// Node 20 has WebSocket (for the raw JSON-RPC client) behind a flag, 22+ by default: without
// it the tests run in a child node with the flag, and signals are passed on to it.
import { spawn } from 'node:child_process'

if (typeof WebSocket !== 'undefined') {
  await import('./e2e.mjs')
} else {
  const child = spawn(process.execPath, ['--experimental-websocket', new URL('./e2e.mjs', import.meta.url).pathname, ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig))
  child.on('exit', (code, sig) => process.exit(code ?? (sig ? 128 : 1)))
}
