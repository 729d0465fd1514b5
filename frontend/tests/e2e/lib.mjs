// Helpers of the end-to-end tests: the real `engram-cli serve` on a temporary home, a raw
// JSON-RPC websocket client, and headless Chromium through playwright-core (never downloads a
// browser). Everything started here is stopped here, on success, failure or interruption.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
// playwright-core lives in the frontend's node_modules.
const require = createRequire(path.join(ROOT, 'frontend', 'package.json'))
const { chromium } = require('playwright-core')

/** Generous deadline for anything the UI or the server has to do. */
export const LONG = Number(process.env.E2E_DEADLINE_MS || 25000)

// ---------------------------------------------------------------- cleanup of what we started

const children = new Set()
const tempDirs = new Set()
const closers = []

function killAll(signal = 'SIGKILL') {
  for (const c of children) {
    try {
      // A detached child leads its own process group: stop the group (its children too).
      if (c.__group) process.kill(-c.pid, signal)
      else c.kill(signal)
    } catch {
      /* already gone */
    }
  }
}

process.on('exit', () => {
  killAll()
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true })
})
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.error(`e2e: ${sig}, stopping`)
    killAll()
    process.exit(130)
  })
}

// Orphaned (the parent node or make was killed): stop everything rather than linger.
const parentPid = process.ppid
setInterval(() => {
  if (process.ppid !== parentPid) {
    console.error('e2e: parent process gone, stopping')
    killAll()
    process.exit(1)
  }
}, 1000).unref()

/** Runs every registered closer (browser, clients), newest first; never throws. */
export async function cleanup() {
  while (closers.length) {
    const fn = closers.pop()
    try {
      await fn()
    } catch {
      /* best effort */
    }
  }
  killAll()
}

/**
 * Stops proc with everything else on exit; group: it was spawned detached and leads its own
 * process group, which is stopped as a whole (its children too).
 */
export function track(proc, group = false) {
  proc.__group = group
  children.add(proc)
  proc.on('exit', () => children.delete(proc))
  return proc
}

export function tempDir(prefix) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  tempDirs.add(d)
  return d
}

// ---------------------------------------------------------------- the server

const URL_RE = /(http:\/\/\S+\/#token=[0-9A-Za-z%._~-]+)/

/** One `engram-cli serve` on home; start() may be called again after stop() (restart). */
export class Server {
  constructor(cli, home, env = {}) {
    this.cli = cli
    this.home = home
    this.env = env
    this.proc = null
    this.log = []
  }

  /** Starts on addr and resolves with {url, port, token} from the line it prints. */
  async start(addr = '127.0.0.1:0') {
    // After a restart the port can take a moment to be free: retry a few times.
    let lastErr
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        return await this.startOnce(addr)
      } catch (e) {
        lastErr = e
        if (!/address|in use|bind/i.test(String(e.message))) throw e
        await sleep(300)
      }
    }
    throw lastErr
  }

  startOnce(addr) {
    return new Promise((resolve, reject) => {
      const proc = spawn(this.cli, ['serve', '--addr', addr], {
        env: { ...process.env, ENGRAM_HOME: this.home, ...this.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      children.add(proc)
      this.proc = proc
      let out = ''
      let err = ''
      let done = false
      const timer = setTimeout(() => finish(new Error(`serve printed no URL within ${LONG} ms\nstdout: ${out}\nstderr: ${err}`)), LONG)
      const finish = (e, v) => {
        if (done) return
        done = true
        clearTimeout(timer)
        if (e) {
          proc.kill('SIGKILL')
          reject(e)
        } else resolve(v)
      }
      proc.stdout.on('data', (d) => {
        out += d
        this.log.push(`[out] ${d}`)
        const m = URL_RE.exec(out)
        if (m) {
          const url = new URL(m[1])
          const token = decodeURIComponent(url.hash.replace(/^#token=/, ''))
          finish(null, { url: m[1], origin: url.origin, port: Number(url.port), token })
        }
      })
      proc.stderr.on('data', (d) => {
        err += d
        this.log.push(`[err] ${d}`)
      })
      proc.on('exit', (code, sig) => {
        children.delete(proc)
        finish(new Error(`serve exited (${code ?? sig}) before printing its URL\nstdout: ${out}\nstderr: ${err}`))
      })
    })
  }

  /** SIGTERM, then SIGKILL if it has not exited by the deadline. */
  async stop() {
    const proc = this.proc
    this.proc = null
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
    const exited = new Promise((r) => proc.once('exit', r))
    proc.kill('SIGTERM')
    const timer = setTimeout(() => proc.kill('SIGKILL'), LONG)
    await exited
    clearTimeout(timer)
  }
}

/** Runs the CLI to completion (seeding before the server starts). */
export function cli(bin, home, args, input) {
  const r = spawnSync(bin, args, { env: { ...process.env, ENGRAM_HOME: home }, input, encoding: 'utf8', timeout: LONG })
  if (r.status !== 0) throw new Error(`${path.basename(bin)} ${args.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}`)
  return r.stdout
}

// ---------------------------------------------------------------- raw JSON-RPC client

/** A websocket JSON-RPC 2.0 client, the way a script (not a browser) talks to the bridge. */
export class RpcClient {
  static open(url) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url)
      const c = new RpcClient(ws)
      const timer = setTimeout(() => reject(new Error(`websocket ${url} did not open`)), LONG)
      ws.onopen = () => {
        clearTimeout(timer)
        closers.push(() => c.close())
        resolve(c)
      }
      ws.onerror = () => {
        clearTimeout(timer)
        reject(new Error(`websocket ${url} failed`))
      }
    })
  }

  constructor(ws) {
    this.ws = ws
    this.next = 1
    this.pending = new Map()
    this.events = []
    this.waiters = new Set()
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data))
      if (msg.method === 'event') {
        this.events.push(msg.params)
        for (const w of this.waiters) w()
        return
      }
      const p = this.pending.get(msg.id)
      if (!p) return
      this.pending.delete(msg.id)
      if (msg.error) p.reject(Object.assign(new Error(msg.error.message), { rpc: msg.error }))
      else p.resolve(msg.result)
    }
    ws.onclose = () => {
      for (const p of this.pending.values()) p.reject(new Error('websocket closed'))
      this.pending.clear()
    }
  }

  call(method, params = {}) {
    const id = this.next++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    })
  }

  /** Resolves with the first event (already received or coming) that pred accepts. */
  waitEvent(pred, what = 'event') {
    return new Promise((resolve, reject) => {
      const check = () => {
        const e = this.events.find(pred)
        if (e) {
          this.waiters.delete(check)
          clearTimeout(timer)
          resolve(e)
        }
      }
      const timer = setTimeout(() => {
        this.waiters.delete(check)
        reject(new Error(`no ${what} within ${LONG} ms; got ${JSON.stringify(this.events.map((e) => e.name))}`))
      }, LONG)
      this.waiters.add(check)
      check()
    })
  }

  close() {
    try {
      this.ws.close()
    } catch {
      /* closed */
    }
  }
}

// ---------------------------------------------------------------- the browser

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean)

export async function launchBrowser() {
  const executablePath = CANDIDATES.find((p) => fs.existsSync(p))
  if (!executablePath) throw new Error('chromium not found; run `make deps`')
  // launch() gives every run (and every context) a fresh temporary profile.
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  })
  closers.push(() => browser.close())
  return browser
}

/**
 * Expected browser noise while the server refuses a token or restarts: the failed websocket
 * handshake and the 401 of the token probe. Anything else logged as an error fails the run.
 */
const EXPECTED_CONSOLE = [/WebSocket connection to .* failed/i, /Failed to load resource/i, /net::ERR_CONNECTION_REFUSED/i]

/** A page that records page errors and unexpected console errors into problems. */
export async function newPage(ctx, name, problems) {
  const page = await ctx.newPage()
  page.on('pageerror', (e) => problems.push(`${name}: page error: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() !== 'error') return
    const text = m.text()
    if (!EXPECTED_CONSOLE.some((re) => re.test(text))) problems.push(`${name}: console error: ${text}`)
  })
  return page
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms))
}

/** Polls fn until it returns a truthy value (no fixed waits in assertions). */
export async function until(fn, what, deadline = LONG) {
  const end = Date.now() + deadline
  let last
  for (;;) {
    try {
      last = await fn()
      if (last) return last
    } catch (e) {
      last = e
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`)
    await sleep(100)
  }
}

/**
 * One end-to-end suite's scaffolding: the CLI under test (ENGRAM_CLI, else build/bin/engram-cli;
 * the process exits 2 when it is missing), the screenshots folder (argv[2], else build/shots),
 * a log with elapsed seconds, expect/check/shot, and run(main) that runs the suite to its first
 * failure, screenshots the page it failed on, fails on errors the page logged, reports the
 * counts (checks not reached count as failed) and exits. `name` prefixes the log and the files.
 * The page is the suite's: set `s.page` once it exists (shot and the failure screenshot use it).
 */
export function suite(name, scriptUrl) {
  const CLI = process.env.ENGRAM_CLI ? path.resolve(process.env.ENGRAM_CLI) : path.join(ROOT, 'build/bin/engram-cli')
  const SHOTS = process.argv[2] ? path.resolve(process.argv[2]) : path.join(ROOT, 'build/shots')
  fs.mkdirSync(SHOTS, { recursive: true })
  if (!fs.existsSync(CLI)) {
    console.error(`${name}: ${CLI} is missing; run make cli`)
    process.exit(2)
  }
  const started = Date.now()
  const s = { CLI, SHOTS, problems: [], page: null, step: '', passed: 0, failed: 0 }
  s.log = (msg) => console.log(`${name} [${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`)
  s.expect = (cond, msg) => {
    if (!cond) throw new Error(`expectation failed: ${msg}`)
  }
  /** shot(name) or shot(page, name): a screenshot of the suite's page, or of another one. */
  s.shot = async (p, shotName) => {
    if (typeof p === 'string') [p, shotName] = [s.page, p]
    const file = path.join(SHOTS, `${name}-${shotName}.png`)
    await p.screenshot({ path: file, animations: 'disabled' })
    s.log(`screenshot ${path.relative(ROOT, file)}`)
  }
  /** One checked step: counted passed or failed; the suite stops at the first failure. */
  s.check = async (stepName, fn) => {
    s.step = stepName
    await fn()
    s.passed++
    s.log(`ok ${stepName}`)
  }
  s.run = async (main) => {
    // Every `await check('…` in the script is one step: those not reached count as failed.
    const total = (fs.readFileSync(new URL(scriptUrl), 'utf8').match(/^\s*await check\('/gm) || []).length
    try {
      await main()
    } catch (e) {
      s.failed++
      console.error(`${name}: FAIL at "${s.step}": ${e.stack || e}`)
      if (s.page) await s.page.screenshot({ path: path.join(SHOTS, `${name}-fail.png`) }).catch(() => {})
    } finally {
      await cleanup()
    }
    if (s.problems.length) {
      s.failed++
      console.error(`${name}: errors in the page:\n  ` + s.problems.join('\n  '))
    }
    const { reportSuite } = await import('../report.mjs')
    reportSuite(name, s.passed, Math.max(s.failed, total - s.passed))
    process.exit(s.failed || s.passed < total ? 1 : 0)
  }
  return s
}
