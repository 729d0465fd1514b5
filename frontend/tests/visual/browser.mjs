// Launches the system Chromium through playwright-core (never downloads a browser).
import { chromium } from 'playwright-core'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean)

export function chromiumPath() {
  for (const p of CANDIDATES) if (fs.existsSync(p)) return p
  throw new Error('chromium not found; run `make deps`')
}

export async function launch() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-chromium-'))
  const ctx = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
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
  // Generous: the suites run on 2 busy cores; every wait is on a state, so a long limit only
  // matters when something is really wrong.
  ctx.setDefaultTimeout(60_000)
  const close = async () => {
    await ctx.close()
    fs.rmSync(userDataDir, { recursive: true, force: true })
  }
  return { ctx, close }
}
