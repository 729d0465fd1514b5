import { t } from '@/i18n'

// naive-ui names two of its inner controls in English whatever its locale: a close button
// ("close", in every modal, drawer, tag and message) and a spinner ("loading"). The build
// routes both through this (naiveLabels in vite.config.ts), so a screen reader hears them in
// the person's language; the render that reads it follows a change of language.
const KEYS: Record<string, string> = {
  close: 'ui.naive.close',
  loading: 'ui.naive.loading',
}

/** The translated aria-label for one of naive-ui's built-in English labels. */
export function naiveLabel(name: string): string {
  const key = KEYS[name]
  return key ? t(key) : name
}
