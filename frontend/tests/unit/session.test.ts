import { describe, expect, it } from 'vitest'
import { WsTransport, TOKEN_STORAGE_KEY, fetchProbe, parseTokenInput, type ProbeResult, type WebSocketLike } from '../../src/api/ws'
import { Session } from '../../src/api/session'
import { ApiError } from '../../src/api/errors'
import { describeUserAgent } from '../../src/util/clipboard'

class Sock implements WebSocketLike {
  static all: Sock[] = []
  readyState = 0
  onopen: ((ev: unknown) => void) | null = null
  onclose: ((ev: unknown) => void) | null = null
  onerror: ((ev: unknown) => void) | null = null
  onmessage: ((ev: { data: unknown }) => void) | null = null
  sent: string[] = []
  constructor(public url: string) {
    Sock.all.push(this)
  }
  send(d: string) {
    this.sent.push(d)
  }
  close() {
    this.readyState = 3
    this.onclose?.({})
  }
  open() {
    this.readyState = 1
    this.onopen?.({})
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0))

function make(opts: { url?: string; probe?: (url: string) => Promise<ProbeResult>; rejectAfter?: number } = {}) {
  Sock.all = []
  const timers: { fn: () => void; ms: number }[] = []
  const t = new WsTransport({
    url: opts.url ?? 'ws://h/ws?token=good',
    factory: (u) => new Sock(u),
    minBackoff: 100,
    maxBackoff: 1000,
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    probe: opts.probe,
    rejectAfter: opts.rejectAfter,
  })
  return { t, timers }
}

function memStorage(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init))
  return {
    map: m,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  }
}

describe('parseTokenInput', () => {
  it('takes a bare token, or the token out of a link', () => {
    expect(parseTokenInput('  abc123  ')).toBe('abc123')
    expect(parseTokenInput('http://127.0.0.1:47821/#token=abc%2B1')).toBe('abc+1')
    expect(parseTokenInput('ws://127.0.0.1:1/ws?token=xyz&v=2')).toBe('xyz')
    expect(parseTokenInput('"http://localhost:5/#token=q"')).toBe('q')
  })
  it('finds nothing in empty text, a link without a token, or several words', () => {
    expect(parseTokenInput('')).toBe('')
    expect(parseTokenInput('http://127.0.0.1:47821/')).toBe('')
    expect(parseTokenInput('two words')).toBe('')
  })
})

describe('token refusal', () => {
  it('without a URL the transport stays idle and refuses calls', async () => {
    const { t } = make({ url: '' })
    t.connect()
    expect(t.state).toBe('idle')
    expect(Sock.all).toHaveLength(0)
    const err = await t.call('app.info', {}).catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).code).toBe('bridge_unauthorized')
  })

  it('asks the probe when a socket closes before opening: refused → rejected, no retry', async () => {
    const refusal = new ApiError('bridge_unauthorized', 'error.bridge_unauthorized', {}, 'no')
    const probed: string[] = []
    const { t, timers } = make({ probe: async (u) => (probed.push(u), { kind: 'rejected', error: refusal }) })
    t.connect()
    Sock.all[0].close()
    await flush()
    expect(probed).toEqual(['ws://h/ws?token=good'])
    expect(t.state).toBe('rejected')
    expect(t.rejection).toBe(refusal)
    expect(timers).toEqual([])
    t.connect() // nothing until a new URL
    expect(Sock.all).toHaveLength(1)
  })

  it('keeps reconnecting while the server is unreachable (a restart), then opens', async () => {
    const { t, timers } = make({ probe: async () => ({ kind: 'unreachable' }) })
    t.connect()
    Sock.all[0].open()
    Sock.all[0].close()
    expect(timers.map((x) => x.ms)).toEqual([100])
    timers[0].fn()
    Sock.all[1].close()
    await flush()
    expect(t.state).toBe('closed')
    expect(timers.map((x) => x.ms)).toEqual([100, 200])
    timers[1].fn()
    Sock.all[2].open()
    expect(t.state).toBe('open')
  })

  it('without a probe, repeated closes before any open count as a refusal', () => {
    const { t, timers } = make({ rejectAfter: 2 })
    t.connect()
    Sock.all[0].close()
    expect(t.state).toBe('closed')
    timers[0].fn()
    Sock.all[1].close()
    expect(t.state).toBe('rejected')
    expect(t.rejection?.i18nKey).toBe('error.bridge_unauthorized')
  })

  it('a new URL starts over; retryNow skips the backoff', async () => {
    const { t, timers } = make({ probe: async () => ({ kind: 'rejected', error: new ApiError('x', 'y') }) })
    t.connect()
    Sock.all[0].close()
    await flush()
    expect(t.state).toBe('rejected')
    t.setUrl('ws://h/ws?token=other')
    expect(Sock.all[1].url).toBe('ws://h/ws?token=other')
    expect(t.state).toBe('connecting')
    expect(t.rejection).toBeNull()
    Sock.all[1].open()
    Sock.all[1].close()
    expect(timers).toHaveLength(1)
    t.retryNow()
    expect(Sock.all).toHaveLength(3)
    timers[0].fn() // the stale timer does nothing
    expect(Sock.all).toHaveLength(3)
  })
})

describe('fetchProbe', () => {
  const res = (status: number, body?: unknown) =>
    ({ status, json: async () => (body === undefined ? Promise.reject(new Error('no body')) : body) }) as unknown as Response

  it('reads a 401 with the bridge error payload as a refusal', async () => {
    const urls: string[] = []
    const probe = fetchProbe((async (u: string) => (urls.push(u), res(401, { code: 'bridge_unauthorized', i18n_key: 'error.bridge_unauthorized', args: {}, message: 'm' }))) as unknown as typeof fetch)
    const r = await probe('ws://127.0.0.1:9/ws?token=a')
    expect(urls).toEqual(['http://127.0.0.1:9/ws?token=a'])
    expect(r.kind).toBe('rejected')
    if (r.kind === 'rejected') expect(r.error.i18nKey).toBe('error.bridge_unauthorized')
  })
  it('reads a 503 with the bridge error payload as busy (retried), not as a refusal', async () => {
    const body = { code: 'bridge_too_many_connections', i18n_key: 'error.bridge_too_many_connections', args: { Max: 128 }, message: 'm' }
    const r = await fetchProbe((async () => res(503, body)) as unknown as typeof fetch)('ws://h/ws?token=a')
    expect(r.kind).toBe('busy')
    if (r.kind === 'busy') expect(r.error.code).toBe('bridge_too_many_connections')
    expect((await fetchProbe((async () => res(503)) as unknown as typeof fetch)('ws://h/ws')).kind).toBe('reachable')
  })
  it('tells a live server (426) from an unreachable one', async () => {
    expect((await fetchProbe((async () => res(426)) as unknown as typeof fetch)('wss://h/ws?token=a')).kind).toBe('reachable')
    expect((await fetchProbe((async () => Promise.reject(new TypeError('down'))) as unknown as typeof fetch)('ws://h/ws')).kind).toBe('unreachable')
    const r = await fetchProbe((async () => res(403)) as unknown as typeof fetch)('ws://h/ws')
    expect(r.kind === 'rejected' && r.error.code).toBe('bridge_unauthorized')
  })
})

describe('Session', () => {
  it('keeps a token once it opened, forgets it on log out', () => {
    const { t } = make({ url: '' })
    const storage = memStorage()
    const s = new Session(t, { location: { protocol: 'http:', host: '127.0.0.1:5' }, localStorage: storage })
    const seen: string[] = []
    s.onChange((v) => seen.push(`${v.state}:${v.everOpen}`))
    expect(s.snapshot).toMatchObject({ mode: 'ws', state: 'idle', everOpen: false, hasToken: false })
    expect(s.login('nothing here http://x/')).toBe(false)
    expect(s.login('http://127.0.0.1:5/#token=tok')).toBe(true)
    expect(Sock.all[0].url).toBe('ws://127.0.0.1:5/ws?token=tok')
    expect(storage.map.get(TOKEN_STORAGE_KEY)).toBeUndefined()
    Sock.all[0].open()
    expect(storage.map.get(TOKEN_STORAGE_KEY)).toBe('tok')
    expect(s.snapshot.everOpen).toBe(true)
    s.logout()
    expect(storage.map.get(TOKEN_STORAGE_KEY)).toBeUndefined()
    expect(s.snapshot).toMatchObject({ state: 'idle', everOpen: false, hasToken: false })
    expect(seen).toContain('open:true')
  })

  it('logs in from a #token= pasted into the address bar of the open page', () => {
    const { t } = make({ url: '' })
    const storage = memStorage()
    const s = new Session(t, { location: { protocol: 'http:', host: '127.0.0.1:5' }, localStorage: storage })
    expect(s.loginFromHash('')).toBe(false)
    expect(s.loginFromHash('#view=memories')).toBe(false)
    expect(s.loginFromHash('#token=abc%2Fdef')).toBe(true)
    expect(Sock.all[0].url).toBe('ws://127.0.0.1:5/ws?token=abc%2Fdef')
    Sock.all[0].open()
    expect(storage.map.get(TOKEN_STORAGE_KEY)).toBe('abc/def')
    // The same working token again does nothing; another one switches to it.
    expect(s.loginFromHash('#token=abc%2Fdef')).toBe(false)
    expect(s.loginFromHash('#x=1&token=other')).toBe(true)
    expect(Sock.all[Sock.all.length - 1].url).toBe('ws://127.0.0.1:5/ws?token=other')
  })

  it('drops a stored token the bridge refuses', async () => {
    const { t } = make({ probe: async () => ({ kind: 'rejected', error: new ApiError('bridge_unauthorized', 'error.bridge_unauthorized') }) })
    const storage = memStorage({ [TOKEN_STORAGE_KEY]: 'good' })
    const s = new Session(t, { localStorage: storage }, 'good')
    t.connect()
    Sock.all[0].close()
    await flush()
    expect(s.snapshot.state).toBe('rejected')
    expect(s.snapshot.rejection?.code).toBe('bridge_unauthorized')
    expect(storage.map.has(TOKEN_STORAGE_KEY)).toBe(false)
  })

  // A tab opened beyond the bridge's connection cap spun on "Connecting…" without a word: the
  // probe's 503 said why, and was read as "reachable". Its reason is kept while the transport
  // retries, and cleared once the socket opens.
  it('says why a socket cannot open while the bridge is at its cap, and keeps retrying', async () => {
    const full = new ApiError('bridge_too_many_connections', 'error.bridge_too_many_connections', { Max: 128 })
    const { t, timers } = make({ probe: async () => ({ kind: 'busy', error: full }) })
    const s = new Session(t, { localStorage: memStorage() }, 'good')
    t.connect()
    Sock.all[0].close()
    await flush()
    expect(s.snapshot.state).toBe('closed')
    expect(s.snapshot.busy?.code).toBe('bridge_too_many_connections')
    expect(timers.length).toBeGreaterThan(0)
    timers[timers.length - 1].fn()
    Sock.all[Sock.all.length - 1].open()
    expect(s.snapshot).toMatchObject({ state: 'open', busy: null, rejection: null })
  })

  it('is always open in the desktop window', () => {
    const s = new Session({ kind: 'wails', call: async () => null, on: () => () => {} })
    expect(s.snapshot).toMatchObject({ mode: 'wails', state: 'open', everOpen: true })
  })
})

describe('describeUserAgent', () => {
  it('names common browsers and systems', () => {
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/139.0.0.0 Safari/537.36')).toBe('Headless Chrome 139 · Linux')
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe('Safari 17 · macOS')
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox 128 · Windows')
    expect(describeUserAgent('node')).toBe('Node.js')
    expect(describeUserAgent('')).toBe('')
  })
})
