// A transport carries one api/ call to Go and back.

export type EventCallback = (data: unknown) => void
export type Unsubscribe = () => void

export interface Transport {
  readonly kind: 'wails' | 'ws'
  /** Calls an api/ method such as "memory.list" with one params object. */
  call(method: string, params: object): Promise<unknown>
  /** Subscribes to a backend event such as "memory.changed". */
  on(name: string, cb: EventCallback): Unsubscribe
}
