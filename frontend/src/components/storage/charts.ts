// The two charts of Settings → Storage. Imported lazily (StorageSettings loads it when the
// drawer opens) so echarts stays out of the main bundle; only the parts used are registered.
import { use, init, type ComposeOption, type ECharts } from 'echarts/core'
import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts'
import { GridComponent, LegendComponent, TooltipComponent, type GridComponentOption, type LegendComponentOption, type TooltipComponentOption } from 'echarts/components'
import { SVGRenderer } from 'echarts/renderers'

use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer])
type Option = ComposeOption<BarSeriesOption | LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>

export interface Palette {
  text: string
  muted: string
  line: string
  green: string
  amber: string
  track: string
  violet: string
  blue: string
}

export interface ScopeBars {
  /** Each scope's label on the axis ("Project · engram"). */
  names: string[]
  /** Each scope's full name for the tooltip ("Project · /home/me/src/engram"); names if absent. */
  titles?: string[]
  /** The width the axis labels may take before they end in an ellipsis (px). */
  labelWidth?: number
  reviewed: number[]
  unreviewed: number[]
  free: number[]
  archived: number[]
  labels: { reviewed: string; unreviewed: string; free: string; archived: string }
}

export interface HistoryLines {
  days: string[]
  memories: number[]
  bytes: number[]
  labels: { memories: string; size: string }
  formatBytes: (n: number) => string
}

export function mount(el: HTMLElement): ECharts {
  return init(el, undefined, { renderer: 'svg' })
}

/** Every scope as one bar as long as its limit: reviewed + unreviewed (= used) + free, and archived beside. */
export function scopesOption(b: ScopeBars, p: Palette): Option {
  const bar = (name: string, data: number[], color: string, stack: string): BarSeriesOption => ({
    type: 'bar',
    name,
    data,
    stack,
    barMaxWidth: 14,
    itemStyle: { color },
    emphasis: { disabled: true },
    animation: false,
  })
  return {
    animation: false,
    grid: { left: 8, right: 16, top: 30, bottom: 4, containLabel: true },
    legend: { top: 0, left: 0, itemWidth: 10, itemHeight: 10, textStyle: { color: p.muted, fontSize: 11 } },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      confine: true,
      formatter: (params: unknown) => scopeTooltip(b, params),
    },
    xAxis: { type: 'value', axisLabel: { color: p.muted, fontSize: 10 }, splitLine: { lineStyle: { color: p.line } } },
    yAxis: {
      type: 'category',
      data: b.names,
      inverse: true,
      axisLabel: { color: p.text, fontSize: 11, width: b.labelWidth ?? 150, overflow: 'truncate' },
      axisLine: { lineStyle: { color: p.line } },
    },
    series: [
      bar(b.labels.reviewed, b.reviewed, p.green, 'used'),
      bar(b.labels.unreviewed, b.unreviewed, p.amber, 'used'),
      bar(b.labels.free, b.free, p.track, 'used'),
      bar(b.labels.archived, b.archived, p.violet, 'archived'),
    ],
  }
}

function escapeHtml(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)
}

/** The axis tooltip of the scopes chart: the scope's full name (a project's whole path), then each series. */
function scopeTooltip(b: ScopeBars, params: unknown): string {
  const list = (Array.isArray(params) ? params : [params]) as { dataIndex: number; marker?: string; seriesName?: string; value?: unknown }[]
  if (!list.length) return ''
  const i = list[0].dataIndex
  const head = `<div style="max-width:280px;white-space:normal;overflow-wrap:anywhere;font-weight:600">${escapeHtml(b.titles?.[i] ?? b.names[i])}</div>`
  const rows = list.map((x) => `<div>${x.marker ?? ''}${escapeHtml(x.seriesName)}&nbsp;&nbsp;<b>${escapeHtml(x.value)}</b></div>`)
  return head + rows.join('')
}

/** The store over time: memories (bars) and size on disk (line, right axis). */
export function historyOption(h: HistoryLines, p: Palette): Option {
  return {
    animation: false,
    grid: { left: 8, right: 8, top: 30, bottom: 4, containLabel: true },
    legend: { top: 0, left: 0, itemWidth: 10, itemHeight: 10, textStyle: { color: p.muted, fontSize: 11 } },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: h.days, axisLabel: { color: p.muted, fontSize: 10, formatter: (d: string) => d.slice(5) }, axisLine: { lineStyle: { color: p.line } } },
    yAxis: [
      { type: 'value', minInterval: 1, axisLabel: { color: p.muted, fontSize: 10 }, splitLine: { lineStyle: { color: p.line } } },
      { type: 'value', axisLabel: { color: p.muted, fontSize: 10, formatter: (n: number) => h.formatBytes(n) }, splitLine: { show: false } },
    ],
    series: [
      { type: 'bar', name: h.labels.memories, data: h.memories, barMaxWidth: 12, itemStyle: { color: p.blue }, animation: false },
      { type: 'line', name: h.labels.size, data: h.bytes, yAxisIndex: 1, symbolSize: 5, itemStyle: { color: p.amber }, lineStyle: { color: p.amber }, animation: false },
    ],
  }
}
