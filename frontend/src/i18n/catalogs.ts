// The one catalog shared with Go: repo-root locales/ (alias @locales).
import enText from '@locales/en.toml?raw'
import zhText from '@locales/zh-CN.toml?raw'
import { parseCatalog, type Catalog } from './core'

export const LANGUAGES = ['en', 'zh-CN'] as const
export type Lang = (typeof LANGUAGES)[number]

export const catalogs: Record<Lang, Catalog> = {
  en: parseCatalog(enText),
  'zh-CN': parseCatalog(zhText),
}
