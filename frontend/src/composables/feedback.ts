// Messages and confirmations without naive-ui in the entry chunk: the same calls as naive-ui's
// useMessage/useDialog, answered by its discrete API once its chunk has loaded (naive/scope.ts).
// A call made before then shows as soon as the chunk arrives; none is dropped.
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

const message: MessageApi = {
  success: (c, o) => show((a) => a.message.success(c, o)),
  error: (c, o) => show((a) => a.message.error(c, o)),
  warning: (c, o) => show((a) => a.message.warning(c, o)),
  info: (c, o) => show((a) => a.message.info(c, o)),
}

const dialog: DialogApi = {
  success: (o) => show((a) => a.dialog.success(o)),
  error: (o) => show((a) => a.dialog.error(o)),
  warning: (o) => show((a) => a.dialog.warning(o)),
  info: (o) => show((a) => a.dialog.info(o)),
}

/** naive-ui's message API (success, error, warning, info), loaded on first use. */
export function useMessage(): MessageApi {
  return message
}

/** naive-ui's dialog API (success, error, warning, info), loaded on first use. */
export function useDialog(): DialogApi {
  return dialog
}
