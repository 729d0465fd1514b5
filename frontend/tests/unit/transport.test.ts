import { afterEach, describe, expect, it, vi } from 'vitest'
import { WailsTransport, wailsTarget } from '../../src/api/wails'
import { WsTransport, bridgeUrl, resolveToken, TOKEN_STORAGE_KEY, type WebSocketLike } from '../../src/api/ws'
import { ApiError } from '../../src/api/errors'
import * as api from '../../src/api'

/** The ApiError a promise rejects with (fails the test if it resolves). */
function rejection(p: Promise<unknown>): Promise<ApiError> {
  return p.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e) => e as ApiError,
  )
}

describe('method name mapping', () => {
  it('maps noun.verb to <Noun>Service.<Verb>', () => {
    expect(wailsTarget('memory.applyBatch')).toEqual({ service: 'MemoryService', method: 'ApplyBatch' })
    expect(wailsTarget('app.info')).toEqual({ service: 'AppService', method: 'Info' })
    expect(wailsTarget('quota.summary')).toEqual({ service: 'QuotaService', method: 'Summary' })
    expect(wailsTarget('settings.update')).toEqual({ service: 'SettingsService', method: 'Update' })
  })

  it('refuses malformed names', () => {
    for (const bad of ['memory', '.list', 'memory.', 'a.b.c', '']) expect(() => wailsTarget(bad)).toThrow()
  })
})

function fakeWails() {
  const calls: unknown[][] = []
  const handlers: Record<string, (d: unknown) => void> = {}
  const w = {
    go: {
      api: {
        MemoryService: {
          List: async (p: object) => (calls.push(['MemoryService.List', p]), { items: [], total: 0 }),
          Update: async () => {
            throw JSON.stringify({ code: 'version_conflict', i18n_key: 'error.version_conflict', args: {}, message: 'm' })
          },
        },
        AppService: { Info: async (p: object) => (calls.push(['AppService.Info', p]), { version: '1' }) },
      },
    },
    runtime: {
      EventsOn: (name: string, cb: (d: unknown) => void) => {
        handlers[name] = cb
        return () => delete handlers[name]
      },
    },
  }
  return { w, calls, handlers }
}

describe('transport selection', () => {
  afterEach(() => api.setTransport(null))

  it('uses the Wails bindings when window.go exists', async () => {
    const { w, calls } = fakeWails()
    const t = api.selectTransport(w)
    expect(t.kind).toBe('wails')
    api.setTransport(t)
    await api.listMemories({ scope: 'global', limit: 5 })
    await api.appInfo()
    expect(calls).toEqual([
      ['MemoryService.List', { scope: 'global', limit: 5 }],
      ['AppService.Info', {}],
    ])
  })

  it('uses the websocket bridge otherwise, with the token from the URL', () => {
    const urls: string[] = []
    class FakeWS {
      readyState = 0
      onopen = null
      onclose = null
      onerror = null
      onmessage = null
      constructor(url: string) {
        urls.push(url)
      }
      send() {}
      close() {}
    }
    const store = new Map<string, string>()
    const g = {
      location: { protocol: 'https:', host: 'example.test:8443', hash: '#token=s3cr%2Bt' },
      localStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) },
      WebSocket: FakeWS,
    }
    const t = api.selectTransport(g)
    expect(t.kind).toBe('ws')
    expect(urls).toEqual(['wss://example.test:8443/ws?token=s3cr%2Bt'])
    expect(store.get(TOKEN_STORAGE_KEY)).toBe('s3cr+t')
    ;(t as WsTransport).close()
  })
})

describe('WailsTransport', () => {
  it('rejects with an ApiError parsed from the Go error string', async () => {
    const { w } = fakeWails()
    const t = new WailsTransport(w)
    const err = await rejection(t.call('memory.update', { id: 'x' }))
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe('version_conflict')
    expect(err.i18nKey).toBe('error.version_conflict')
  })

  it('reports a missing binding as unknown_method', async () => {
    const { w } = fakeWails()
    const err = await rejection(new WailsTransport(w).call('graph.path', {}))
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe('unknown_method')
    expect(err.args).toEqual({ Method: 'graph.path' })
  })

  it('subscribes to events through the runtime', () => {
    const { w, handlers } = fakeWails()
    const t = new WailsTransport(w)
    const got: unknown[] = []
    const off = t.on('memory.changed', (d) => got.push(d))
    handlers['memory.changed']({ ids: ['a'] })
    expect(got).toEqual([{ ids: ['a'] }])
    off()
    expect(handlers['memory.changed']).toBeUndefined()
  })
})

class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = []
  readyState = 0
  sent: unknown[] = []
  onopen: ((ev: unknown) => void) | null = null
  onclose: ((ev: unknown) => void) | null = null
  onerror: ((ev: unknown) => void) | null = null
  onmessage: ((ev: { data: unknown }) => void) | null = null
  constructor(public url: string) {
    FakeSocket.all.push(this)
  }
  send(data: string) {
    this.sent.push(JSON.parse(data))
  }
  close() {
    this.readyState = 3
    this.onclose?.({})
  }
  open() {
    this.readyState = 1
    this.onopen?.({})
  }
  reply(msg: object) {
    this.onmessage?.({ data: JSON.stringify({ jsonrpc: '2.0', ...msg }) })
  }
}

function newWs() {
  FakeSocket.all = []
  const timers: { fn: () => void; ms: number }[] = []
  const t = new WsTransport({
    url: 'ws://127.0.0.1:1/ws?token=t',
    factory: (url) => new FakeSocket(url),
    minBackoff: 100,
    maxBackoff: 1000,
    setTimer: (fn, ms) => timers.push({ fn, ms }),
  })
  return { t, timers }
}

describe('WsTransport', () => {
  it('queues calls until open, then matches responses by id', async () => {
    const { t } = newWs()
    const p1 = t.call('memory.list', { limit: 1 })
    const p2 = t.call('app.info', {})
    const s = FakeSocket.all[0]
    expect(s.sent).toEqual([])
    s.open()
    expect(s.sent).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'memory.list', params: { limit: 1 } },
      { jsonrpc: '2.0', id: 2, method: 'app.info', params: {} },
    ])
    s.reply({ id: 2, result: { version: '1' } })
    s.reply({ id: 1, result: { items: [], total: 0 } })
    await expect(p1).resolves.toEqual({ items: [], total: 0 })
    await expect(p2).resolves.toEqual({ version: '1' })
  })

  it('refuses a call larger than the bridge reads, says why, and keeps the socket', async () => {
    const { t } = newWs()
    const first = t.call('app.info', {})
    const s = FakeSocket.all[0]
    s.open()
    s.reply({ id: 1, result: { version: '1' } })
    await first
    s.sent = []
    // A JSONL import of a few MiB, and one under 1 MiB in characters but over it in UTF-8 bytes.
    for (const jsonl of ['x'.repeat(2 << 20), '中'.repeat(400_000)]) {
      const err = await rejection(t.call('memory.importPreview', { jsonl }))
      expect(err.code).toBe('message_too_large')
      expect(err.i18nKey).toBe('ui.errors.message_too_large')
    }
    expect(s.sent).toEqual([])
    expect(s.readyState).toBe(1)
    // Just under the limit is sent as before, and the socket still answers.
    const p = t.call('memory.importPreview', { jsonl: 'y'.repeat((1 << 20) - 200) })
    expect(s.sent).toHaveLength(1)
    s.reply({ id: 4, result: { lines: 1 } })
    await expect(p).resolves.toEqual({ lines: 1 })
  })

  it('turns JSON-RPC errors into ApiErrors', async () => {
    const { t } = newWs()
    const p = t.call('memory.read', { id: 'x' })
    const s = FakeSocket.all[0]
    s.open()
    s.reply({ id: 1, error: { code: -32000, message: 'nf', data: { code: 'not_found', i18n_key: 'error.not_found', args: { Ref: 'x' }, message: 'nf' } } })
    const err = await rejection(p)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe('not_found')
    expect(err.args).toEqual({ Ref: 'x' })
  })

  it('dispatches event notifications by name', () => {
    const { t } = newWs()
    t.connect()
    const s = FakeSocket.all[0]
    s.open()
    const got: unknown[] = []
    const off = t.on('memory.changed', (d) => got.push(d))
    s.reply({ method: 'event', params: { name: 'memory.changed', data: { ids: ['a', 'b'] } } })
    s.reply({ method: 'event', params: { name: 'quota.changed', data: { level: 'notice' } } })
    off()
    s.reply({ method: 'event', params: { name: 'memory.changed', data: { ids: ['c'] } } })
    expect(got).toEqual([{ ids: ['a', 'b'] }])
  })

  it('fails calls in flight on close and reconnects with growing backoff', async () => {
    const { t, timers } = newWs()
    const states: string[] = []
    t.onState((s) => states.push(s))
    const p = t.call('memory.list', {})
    FakeSocket.all[0].open()
    FakeSocket.all[0].close()
    const err = await rejection(p)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.i18nKey).toBe('ui.errors.disconnected')
    expect(timers.map((x) => x.ms)).toEqual([100])
    timers[0].fn() // reconnect attempt 1 fails
    expect(FakeSocket.all).toHaveLength(2)
    FakeSocket.all[1].close()
    expect(timers.map((x) => x.ms)).toEqual([100, 200])
    timers[1].fn()
    FakeSocket.all[2].open() // success resets the backoff
    FakeSocket.all[2].close()
    expect(timers.map((x) => x.ms)).toEqual([100, 200, 100])
    expect(states).toEqual(['connecting', 'open', 'closed', 'connecting', 'closed', 'connecting', 'open', 'closed'])
  })

  it('caps the backoff and stops after close()', () => {
    const { t, timers } = newWs()
    expect([0, 1, 2, 3, 4, 10, 40].map((n) => t.backoff(n))).toEqual([100, 200, 400, 800, 1000, 1000, 1000])
    t.connect()
    t.close()
    expect(timers).toEqual([])
  })
})

describe('bridge URL and token', () => {
  it('builds ws and wss URLs', () => {
    expect(bridgeUrl({ protocol: 'http:', host: '127.0.0.1:7777' }, 'abc')).toBe('ws://127.0.0.1:7777/ws?token=abc')
    expect(bridgeUrl({ protocol: 'https:', host: 'h' }, '')).toBe('wss://h/ws')
  })

  it('reads the token from the hash first, then from storage', () => {
    const m = new Map<string, string>([[TOKEN_STORAGE_KEY, 'stored']])
    const storage = { getItem: (k: string) => m.get(k) ?? null, setItem: vi.fn((k: string, v: string) => void m.set(k, v)) }
    expect(resolveToken({ hash: '' }, storage)).toBe('stored')
    expect(resolveToken({ hash: '#x=1&token=new' }, storage)).toBe('new')
    expect(storage.setItem).toHaveBeenCalledWith(TOKEN_STORAGE_KEY, 'new')
    expect(resolveToken({ hash: '' }, undefined)).toBe('')
  })
})

describe('generated Wails bindings', () => {
  it('exist for every method the typed wrappers call', async () => {
    const fs = await import('node:fs')
    const path = await import('node:path')
    const dir = path.resolve(__dirname, '../../wailsjs/go/api')
    const src = fs.readFileSync(path.resolve(__dirname, '../../src/api/index.ts'), 'utf8')
    const methods = [...src.matchAll(/call<[^>]+>\('([a-zA-Z]+\.[a-zA-Z]+)'/g)].map((m) => m[1])
    expect(methods.length).toBeGreaterThan(10)
    for (const m of methods) {
      const { service, method } = wailsTarget(m)
      const file = path.join(dir, `${service}.d.ts`)
      expect(fs.existsSync(file), `${file} (for ${m})`).toBe(true)
      expect(fs.readFileSync(file, 'utf8'), `${service}.${method} (for ${m})`).toContain(`export function ${method}(`)
    }
  })
})
