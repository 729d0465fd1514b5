// naive-ui's look for Engram, as plain data: the entry chunk reads it without loading naive-ui
// (the first view draws its controls with plain elements; naive-ui arrives with the first view
// that needs it, src/naive/).
import type { GlobalThemeOverrides } from 'naive-ui'

export const MONO = 'ui-monospace, "SFMono-Regular", "JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace'

/** The theme overrides of every naive-ui component Engram mounts, for a light or dark window. */
export function themeOverrides(dark: boolean, fontFamily: string): GlobalThemeOverrides {
  const primary = dark ? '#8b97ff' : '#4f5fe8'
  return {
    common: {
      fontFamily,
      fontFamilyMono: MONO,
      primaryColor: primary,
      primaryColorHover: dark ? '#a3adff' : '#6473f0',
      primaryColorPressed: dark ? '#7480f0' : '#3f4ed6',
      primaryColorSuppl: dark ? '#7480f0' : '#6473f0',
      borderRadius: '7px',
      ...(dark
        ? {
            bodyColor: '#171a21',
            cardColor: '#1e222b',
            modalColor: '#1e222b',
            popoverColor: '#252a35',
            tableColor: '#1e222b',
          }
        : {}),
    },
    Drawer: { color: dark ? '#1a1e26' : '#ffffff' },
  }
}
