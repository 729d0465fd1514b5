// Transport over the bridge: JSON-RPC 2.0 on ws(s)://<host>/ws?token=…
//
// Requests  {jsonrpc:"2.0", id, method, params}
// Responses {jsonrpc:"2.0", id, result} | {jsonrpc:"2.0", id, error:{code, message, data}}
// Events    {jsonrpc:"2.0", method:"event", params:{name, data}}

import { ApiError, normalizeError } from './errors'
import type { EventCallback, Transport, Unsubscribe } from './transport'

/** The subset of the DOM WebSocket this transport uses (injectable for tests). */
export interface WebSocketLike {
  readyState: number
  onopen: ((ev: unknown) => void) | null
  onclose: ((ev: unknown) => void) | null
  onerror: ((ev: unknown) => void) | null
  onmessage: ((ev: { data: unknown }) => void) | null
  send(data: string): void
  close(code?: number, reason?: string): void
}
export type WebSocketFactory = (url: string) => WebSocketLike

export type ConnectionState = 'connecting' | 'open' | 'closed'

export interface WsOptions {
  url: string
  factory?: WebSocketFactory
  /** Backoff schedule in ms: min, max. */
  minBackoff?: number
  maxBackoff?: number
  setTimer?: (fn: () => void, ms: number) => unknown
}

const OPEN = 1
export const TOKEN_STORAGE_KEY = 'engram.token'

interface Pending {
  resolve: (v: unknown) => void
  reject: (e: unknown) => void
}

/** Reads the bridge token from "#token=…" (then stored) or from storage. */
export function resolveToken(loc: { hash: string }, storage?: Pick<Storage, 'getItem' | 'setItem'>): string {
  const m = /(?:^#|[#&])token=([^&]+)/.exec(loc.hash || '')
  if (m) {
    const token = decodeURIComponent(m[1])
    try {
      storage?.setItem(TOKEN_STORAGE_KEY, token)
    } catch {
      /* storage may be unavailable */
    }
    return token
  }
  try {
    return storage?.getItem(TOKEN_STORAGE_KEY) ?? ''
  } catch {
    return ''
  }
}

/** ws(s)://<host>/ws?token=… for a page served over http(s)://<host>/. */
export function bridgeUrl(loc: { protocol: string; host: string }, token: string): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:'
  const q = token ? `?token=${encodeURIComponent(token)}` : ''
  return `${proto}//${loc.host}/ws${q}`
}

export class WsTransport implements Transport {
  readonly kind = 'ws' as const
  private sock: WebSocketLike | null = null
  private nextId = 1
  private pending = new Map<number, Pending>()
  private queue: string[] = []
  private listeners = new Map<string, Set<EventCallback>>()
  private stateListeners = new Set<(s: ConnectionState) => void>()
  private attempt = 0
  private closedByUser = false
  private reconnectScheduled = false
  state: ConnectionState = 'closed'

  private readonly factory: WebSocketFactory
  private readonly minBackoff: number
  private readonly maxBackoff: number
  private readonly setTimer: (fn: () => void, ms: number) => unknown

  constructor(private readonly opts: WsOptions) {
    this.factory = opts.factory ?? ((url) => new WebSocket(url) as unknown as WebSocketLike)
    this.minBackoff = opts.minBackoff ?? 500
    this.maxBackoff = opts.maxBackoff ?? 15000
    this.setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
  }

  /** Delay before reconnect attempt n (0-based): exponential, capped. */
  backoff(n: number): number {
    return Math.min(this.maxBackoff, this.minBackoff * 2 ** Math.min(n, 16))
  }

  onState(cb: (s: ConnectionState) => void): Unsubscribe {
    this.stateListeners.add(cb)
    return () => this.stateListeners.delete(cb)
  }

  private setState(s: ConnectionState) {
    this.state = s
    for (const cb of this.stateListeners) cb(s)
  }

  connect(): void {
    if (this.sock) return
    this.closedByUser = false
    this.setState('connecting')
    let sock: WebSocketLike
    try {
      sock = this.factory(this.opts.url)
    } catch {
      this.scheduleReconnect()
      return
    }
    this.sock = sock
    sock.onopen = () => {
      this.attempt = 0
      this.setState('open')
      const q = this.queue
      this.queue = []
      for (const msg of q) sock.send(msg)
    }
    sock.onmessage = (ev) => this.handleMessage(ev.data)
    sock.onerror = () => {
      /* onclose follows */
    }
    sock.onclose = () => {
      if (this.sock !== sock) return
      this.sock = null
      this.setState('closed')
      // Calls in flight cannot be answered on a new connection.
      const err = new ApiError('disconnected', 'ui.errors.disconnected', {}, 'connection closed')
      for (const p of this.pending.values()) p.reject(err)
      this.pending.clear()
      this.queue = []
      if (!this.closedByUser) this.scheduleReconnect()
    }
  }

  private scheduleReconnect() {
    if (this.reconnectScheduled) return
    this.reconnectScheduled = true
    const delay = this.backoff(this.attempt++)
    this.setTimer(() => {
      this.reconnectScheduled = false
      if (!this.closedByUser) this.connect()
    }, delay)
  }

  close(): void {
    this.closedByUser = true
    const s = this.sock
    this.sock = null
    s?.close(1000, 'bye')
    this.setState('closed')
    const err = new ApiError('disconnected', 'ui.errors.disconnected', {}, 'connection closed')
    for (const p of this.pending.values()) p.reject(err)
    this.pending.clear()
    this.queue = []
  }

  private handleMessage(raw: unknown) {
    let msg: Record<string, unknown>
    try {
      msg = JSON.parse(String(raw))
    } catch {
      return
    }
    if (!msg || typeof msg !== 'object') return
    if (msg.method === 'event' && msg.id === undefined) {
      const p = msg.params as { name?: unknown; data?: unknown } | undefined
      if (p && typeof p.name === 'string') {
        for (const cb of this.listeners.get(p.name) ?? []) cb(p.data)
      }
      return
    }
    if (typeof msg.id !== 'number') return
    const pending = this.pending.get(msg.id)
    if (!pending) return
    this.pending.delete(msg.id)
    if (msg.error !== undefined && msg.error !== null) pending.reject(normalizeError(msg.error))
    else pending.resolve(msg.result)
  }

  call(method: string, params: object): Promise<unknown> {
    const id = this.nextId++
    const msg = JSON.stringify({ jsonrpc: '2.0', id, method, params: params ?? {} })
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      if (this.sock && this.sock.readyState === OPEN) this.sock.send(msg)
      else {
        this.queue.push(msg)
        if (!this.sock) this.connect()
      }
    })
  }

  on(name: string, cb: EventCallback): Unsubscribe {
    let set = this.listeners.get(name)
    if (!set) this.listeners.set(name, (set = new Set()))
    set.add(cb)
    return () => set!.delete(cb)
  }
}
