// Messages and confirmations without naive-ui in the entry chunk: the same calls as naive-ui's
// useMessage/useDialog, answered by its discrete API once its chunk has loaded (naive/scope.ts).
// A call made before then shows as soon as the chunk arrives. When the chunk cannot be fetched
// (a dropped bridge) the message is logged, and the next call fetches again (naive/load.ts).
import type { DialogOptions, MessageOptions } from 'naive-ui'
import { loadNaive } from '@/naive/load'

type Level = 'success' | 'error' | 'warning' | 'info'
export type MessageApi = Record<Level, (content: string, options?: MessageOptions) => void>
export type DialogApi = Record<Level, (options: DialogOptions) => void>

function show(f: (api: ReturnType<Awaited<ReturnType<typeof loadNaive>>['feedback']>) => void) {
  loadNaive().then(
    (m) => f(m.feedback()),
    (e) => console.error('engram: unable to load the message component', e),
  )
}

const LEVELS: Level[] = ['success', 'error', 'warning', 'info']
const message = Object.fromEntries(
  LEVELS.map((l) => [l, (c: string, o?: MessageOptions) => show((a) => a.message[l](c, o))]),
) as MessageApi
const dialog = Object.fromEntries(LEVELS.map((l) => [l, (o: DialogOptions) => show((a) => a.dialog[l](o))])) as DialogApi

/** naive-ui's message API (success, error, warning, info), loaded on first use. */
export function useMessage(): MessageApi {
  return message
}

/** naive-ui's dialog API (success, error, warning, info), loaded on first use. */
export function useDialog(): DialogApi {
  return dialog
}
