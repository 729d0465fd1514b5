import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api'
import { normaliseLang, setLanguage, type Lang } from '@/i18n'

const LOCAL_KEY = 'engram.ui'

function readLocal(): Partial<{ language: Lang; theme: api.Theme }> {
  try {
    return JSON.parse(localStorage.getItem(LOCAL_KEY) || '{}')
  } catch {
    return {}
  }
}

function writeLocal(v: { language: Lang; theme: api.Theme }) {
  try {
    localStorage.setItem(LOCAL_KEY, JSON.stringify(v))
  } catch {
    /* storage unavailable */
  }
}

function normaliseTheme(v: unknown): api.Theme {
  return v === 'light' || v === 'dark' || v === 'system' ? v : 'system'
}

export const useSettings = defineStore('settings', () => {
  const local = readLocal()
  const browserLang: Lang = navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en'
  const language = ref<Lang>(local.language ? normaliseLang(local.language) : browserLang)
  const theme = ref<api.Theme>(normaliseTheme(local.theme))
  const info = ref<api.AppInfo | null>(null)
  const systemDark = ref(typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches)

  if (typeof matchMedia === 'function') {
    matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', (e) => (systemDark.value = e.matches))
  }

  const dark = computed(() => theme.value === 'dark' || (theme.value === 'system' && systemDark.value))

  function apply(s: { language?: unknown; theme?: unknown }) {
    if (s.language) language.value = normaliseLang(s.language)
    if (s.theme) theme.value = normaliseTheme(s.theme)
    setLanguage(language.value)
    writeLocal({ language: language.value, theme: theme.value })
  }

  /** A language the person picked before a connection (the login card): saved in Engram
   *  once one exists, instead of being replaced by the saved one at login. */
  let pickedOffline: Lang | null = null

  function pickOffline(l: Lang) {
    pickedOffline = l
    apply({ language: l })
  }

  async function load() {
    setLanguage(language.value)
    const [s, i] = await Promise.allSettled([api.getSettings(), api.appInfo()])
    if (s.status === 'fulfilled') apply(s.value)
    if (i.status === 'fulfilled') info.value = i.value
    const picked = pickedOffline
    pickedOffline = null
    if (picked && s.status === 'fulfilled' && picked !== language.value) {
      await update({ language: picked }).catch(() => {}) // refused: the saved language stays
    }
  }

  async function update(p: api.SettingsUpdate) {
    const before = { language: language.value, theme: theme.value }
    apply(p) // optimistic: the switch reacts at once
    try {
      apply(await api.updateSettings(p))
    } catch (e) {
      apply(before)
      throw api.normalizeError(e)
    }
  }

  return { language, theme, dark, info, load, update, apply, pickOffline }
})
