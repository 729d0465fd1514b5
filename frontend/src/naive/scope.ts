// naive-ui's side of the UI, a chunk of its own: the config provider every naive-ui control is
// mounted under (theme, overrides, locale) and the message and dialog APIs. The entry chunk and
// the first view hold no naive-ui: a window left on its first view never runs naive-ui's code
// or its style generation (README, "The desktop window": the web process's idle memory).
import { computed, defineComponent, h, watch, type ComputedRef } from 'vue'
import { NConfigProvider, createDiscreteApi, dateEnUS, dateZhCN, enUS, zhCN, type ConfigProviderProps } from 'naive-ui'
import { useSettings } from '@/stores/settings'
import { darkTheme, loadDarkTheme } from '@/util/darkTheme'
import { uiFont } from '@/util/fonts'
import { themeOverrides } from '@/util/naiveTheme'

let config: ComputedRef<ConfigProviderProps> | null = null

/**
 * The one config every naive-ui subtree and the message and dialog app share, made when this
 * chunk is first used (the settings store exists by then). A window that turns dark loads
 * naive-ui's dark theme then (load.ts waits for it when the window is already dark).
 */
function configProps(): ComputedRef<ConfigProviderProps> {
  if (config) return config
  const settings = useSettings()
  // Asked again a few times when the chunk cannot be fetched (the server restarting).
  const load = (tries: number) =>
    void loadDarkTheme().catch(() => {
      if (tries > 1) setTimeout(() => settings.dark && load(tries - 1), 2000)
    })
  watch(
    () => settings.dark,
    (dark) => dark && load(5),
    { immediate: true },
  )
  config = computed<ConfigProviderProps>(() => {
    const zh = settings.language === 'zh-CN'
    // Dark surfaces only with the dark theme's text: until its chunk is here the window stays
    // light (dark overrides over the light theme drew dark titles on dark dialogs).
    const dark = settings.dark && !!darkTheme.value
    return {
      theme: dark ? darkTheme.value : null,
      themeOverrides: themeOverrides(dark, uiFont.value),
      locale: zh ? zhCN : enUS,
      dateLocale: zh ? dateZhCN : dateEnUS,
    }
  })
  return config
}

/**
 * The config provider around a naive-ui subtree (a view, a drawer, a control). Abstract: it adds
 * no element, so the subtree lays out as if it were not there.
 */
export const NaiveScope = defineComponent({
  name: 'NaiveScope',
  setup(_, { slots }) {
    const props = configProps()
    return () => h(NConfigProvider, { ...props.value, abstract: true }, slots)
  },
})

type Discrete = ReturnType<typeof createDiscreteApi<'message' | 'dialog'>>
let discrete: Discrete | null = null

/** The message and dialog APIs, mounted once in an app of their own under the same config. */
export function feedback(): Discrete {
  discrete ??= createDiscreteApi(['message', 'dialog'], {
    configProviderProps: configProps(),
    // At the bottom: at the top they covered the views' header buttons (New memory, the
    // search box) for as long as they showed.
    messageProviderProps: { placement: 'bottom' },
  })
  return discrete
}
