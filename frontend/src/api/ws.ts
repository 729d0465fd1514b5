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

/**
 * idle: no token yet, nothing to connect to. connecting/open/closed: the usual life of a
 * socket (closed means a reconnect is on its way). rejected: the bridge refused the token;
 * nothing is retried until a new URL (token) is set.
 */
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'closed' | 'rejected'

/**
 * What a plain HTTP request to the websocket URL says about a socket that closed before it
 * opened: the browser hides the handshake status (401 for a wrong token), the probe does not.
 */
export type ProbeResult =
  | { kind: 'rejected'; error: ApiError }
  | { kind: 'reachable' }
  | { kind: 'unreachable' }
  /** The bridge is at its connection cap (503): retried, and its words shown meanwhile. */
  | { kind: 'busy'; error: ApiError }
export type Probe = (url: string) => Promise<ProbeResult>

export interface WsOptions {
  /** ws(s)://…/ws?token=…; empty while there is no token (state idle). */
  url: string
  factory?: WebSocketFactory
  /** Backoff schedule in ms: min, max. */
  minBackoff?: number
  maxBackoff?: number
  setTimer?: (fn: () => void, ms: number) => unknown
  /** Asks the server why sockets close before opening (see ProbeResult). */
  probe?: Probe
  /**
   * Without a probe: consecutive closes before open, on a URL that never opened, after which
   * the token counts as rejected.
   */
  rejectAfter?: number
}

const OPEN = 1
export const TOKEN_STORAGE_KEY = 'engram.token'

/**
 * The most the bridge reads in one message (its MaxMessage, 1 MiB). A bigger call (importing a
 * JSONL file of a few MiB from the web UI) made the bridge close the socket: the call failed as
 * "connection lost", everything else in flight with it, and nothing said why. It is refused
 * here instead, saying so, and the socket stays.
 */
export const MAX_MESSAGE_BYTES = 1 << 20

/** The ApiError of a call too large to send over the bridge. */
export function tooLargeError(): ApiError {
  return new ApiError('message_too_large', 'ui.errors.message_too_large', { Max: '1 MiB' }, 'message too large')
}

interface Pending {
  resolve: (v: unknown) => void
  reject: (e: unknown) => void
}

/** The ApiError of a refused token (the bridge's own message when it sent one). */
export function unauthorizedError(): ApiError {
  return new ApiError('bridge_unauthorized', 'error.bridge_unauthorized', {}, 'token rejected')
}

/** Reads the bridge token from "#token=…" (then stored) or from storage. */
export function resolveToken(loc: { hash: string }, storage?: Pick<Storage, 'getItem' | 'setItem'>): string {
  const m = /(?:^#|[#&])token=([^&]+)/.exec(loc.hash || '')
  if (m) {
    const token = safeDecode(m[1])
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

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/**
 * The token in what a person pasted: the token itself, or a whole URL such as
 * http://127.0.0.1:47821/#token=… (also ?token=…). Empty when there is none.
 */
export function parseTokenInput(input: string): string {
  const s = input.trim().replace(/^["'<]+|["'>]+$/g, '')
  if (!s) return ''
  const m = /[#?&]token=([^&#\s]+)/.exec(s)
  if (m) return safeDecode(m[1]).trim()
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return '' // a URL without a token
  return /^\S+$/.test(s) ? s : ''
}

/** ws(s)://<host>/ws?token=… for a page served over http(s)://<host>/. */
export function bridgeUrl(loc: { protocol: string; host: string }, token: string): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:'
  const q = token ? `?token=${encodeURIComponent(token)}` : ''
  return `${proto}//${loc.host}/ws${q}`
}

/** Probe over fetch: GET the websocket URL without upgrading. 401/403 = refused. */
export function fetchProbe(fetcher: typeof fetch): Probe {
  return async (url) => {
    const httpUrl = url.replace(/^ws(s?):/, 'http$1:')
    let res: Response
    try {
      res = await fetcher(httpUrl, { cache: 'no-store', credentials: 'omit' })
    } catch {
      return { kind: 'unreachable' }
    }
    if (res.status !== 401 && res.status !== 403 && res.status !== 503) return { kind: 'reachable' }
    let body: unknown = null
    try {
      body = await res.json()
    } catch {
      /* not JSON */
    }
    const b = body as { code?: unknown; i18n_key?: unknown } | null
    const known = b && (typeof b.code === 'string' || typeof b.i18n_key === 'string')
    if (res.status === 503) return known ? { kind: 'busy', error: normalizeError(b) } : { kind: 'reachable' }
    return { kind: 'rejected', error: known ? normalizeError(b) : unauthorizedError() }
  }
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
  /** Bumped to forget scheduled reconnects and probes in flight. */
  private generation = 0
  /** Whether the current URL ever opened (then closes before open are outages, not refusals). */
  private openedOnce = false
  private preOpenFailures = 0
  private url: string
  state: ConnectionState = 'idle'
  /** Why the token was refused (state rejected). */
  rejection: ApiError | null = null
  /**
   * Why the last socket could not open while the bridge is reachable and the token good: at its
   * connection cap (a tab beyond it waited on "Connecting…" without a word). Cleared on open.
   */
  busy: ApiError | null = null

  private readonly factory: WebSocketFactory
  private readonly minBackoff: number
  private readonly maxBackoff: number
  private readonly setTimer: (fn: () => void, ms: number) => unknown

  constructor(private readonly opts: WsOptions) {
    this.url = opts.url
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
    if (!this.url) {
      this.setState('idle')
      return
    }
    if (this.state === 'rejected') return
    this.closedByUser = false
    this.setState('connecting')
    let sock: WebSocketLike
    try {
      sock = this.factory(this.url)
    } catch {
      this.setState('closed')
      this.scheduleReconnect()
      return
    }
    this.sock = sock
    let opened = false
    sock.onopen = () => {
      if (this.sock !== sock) return
      opened = true
      this.openedOnce = true
      this.attempt = 0
      this.preOpenFailures = 0
      this.busy = null
      this.setState('open')
      const q = this.queue
      this.queue = []
      for (const msg of q) sock.send(msg)
    }
    sock.onmessage = (ev) => {
      if (this.sock === sock) this.handleMessage(ev.data)
    }
    sock.onerror = () => {
      /* onclose follows */
    }
    sock.onclose = () => {
      if (this.sock !== sock) return
      this.sock = null
      // Calls in flight cannot be answered on a new connection.
      this.failPending()
      if (this.closedByUser) return
      this.setState('closed')
      if (opened) this.scheduleReconnect()
      else this.closedBeforeOpen()
    }
  }

  /** A socket closed before opening: an outage, or the bridge refusing the token. */
  private closedBeforeOpen() {
    this.preOpenFailures++
    const probe = this.opts.probe
    if (!probe) {
      if (!this.openedOnce && this.preOpenFailures >= (this.opts.rejectAfter ?? 3)) this.reject(unauthorizedError())
      else this.scheduleReconnect()
      return
    }
    const gen = this.generation
    const url = this.url
    probe(url).then(
      (r) => {
        if (gen !== this.generation || this.closedByUser || this.sock) return
        if (r.kind === 'rejected') return this.reject(r.error)
        if (r.kind === 'busy') {
          this.busy = r.error
          this.setState(this.state) // listeners read busy with the state
        }
        this.scheduleReconnect()
      },
      () => {
        if (gen === this.generation && !this.closedByUser && !this.sock) this.scheduleReconnect()
      },
    )
  }

  private reject(err: ApiError) {
    this.rejection = err
    this.generation++
    this.reconnectScheduled = false
    this.setState('rejected')
  }

  private failPending() {
    const err = new ApiError('disconnected', 'ui.errors.disconnected', {}, 'connection closed')
    for (const p of this.pending.values()) p.reject(err)
    this.pending.clear()
    this.queue = []
  }

  private scheduleReconnect() {
    if (this.reconnectScheduled) return
    this.reconnectScheduled = true
    const gen = this.generation
    const delay = this.backoff(this.attempt++)
    this.setTimer(() => {
      if (gen !== this.generation) return
      this.reconnectScheduled = false
      if (!this.closedByUser) this.connect()
    }, delay)
  }

  /** Skips the wait before the next reconnect attempt. */
  retryNow(): void {
    if (this.sock || this.closedByUser || !this.url || this.state === 'rejected') return
    this.generation++
    this.reconnectScheduled = false
    this.connect()
  }

  /** Points the transport at another URL (a new token): drops the socket and connects to it. */
  setUrl(url: string): void {
    this.url = url
    this.generation++
    this.reconnectScheduled = false
    this.openedOnce = false
    this.preOpenFailures = 0
    this.attempt = 0
    this.rejection = null
    this.busy = null
    const s = this.sock
    this.sock = null
    this.closedByUser = false
    s?.close(1000, 'new token')
    this.failPending()
    this.state = 'closed'
    this.connect()
  }

  close(): void {
    this.closedByUser = true
    this.generation++
    this.reconnectScheduled = false
    const s = this.sock
    this.sock = null
    s?.close(1000, 'bye')
    this.setState(this.url ? 'closed' : 'idle')
    this.failPending()
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
    // Bytes as sent (UTF-8); the length in UTF-16 units cannot exceed three times the bytes.
    if (msg.length > MAX_MESSAGE_BYTES / 3 && new TextEncoder().encode(msg).length > MAX_MESSAGE_BYTES) {
      return Promise.reject(tooLargeError())
    }
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      if (this.sock && this.sock.readyState === OPEN) this.sock.send(msg)
      else if (!this.url || this.state === 'rejected') {
        this.pending.delete(id)
        reject(this.rejection ?? unauthorizedError())
      } else {
        this.queue.push(msg)
        if (!this.sock && !this.reconnectScheduled) this.connect()
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
