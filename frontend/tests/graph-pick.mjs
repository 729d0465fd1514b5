// Picks an entity in one of the Graph view's remote search selects by typing part of its name:
// shared by the visual scenarios and the end-to-end suite.

/**
 * Types text into the select, waits until the view answered that query (data-answered), then
 * chooses the option labelled label with the keyboard, as a person would: a mouse click on an
 * option can land on a menu still animating open on a busy machine, and the closed menus of the
 * other pickers stay in the page, hidden, with the same options — only the open one counts.
 * timeout bounds each wait (Playwright's default when not given).
 */
export async function pick(page, select, text, label, timeout) {
  const opts = timeout ? { timeout } : {}
  await page.click(`[data-test="${select}"]`)
  await page.keyboard.type(text)
  await page.locator(`[data-test="graph-view"][data-answered="${text}"]`).waitFor(opts)
  await page.locator('.n-base-select-option:visible', { hasText: label }).first().waitFor(opts)
  const pending = page.locator('.n-base-select-option--pending:visible', { hasText: label })
  for (let i = 0; i < 25 && !(await pending.count()); i++) await page.keyboard.press('ArrowDown')
  if (!(await pending.count())) throw new Error(`no option "${label}" for "${text}" in ${select}`)
  await page.keyboard.press('Enter')
  await page.locator(`[data-test="${select}"]`, { hasText: label }).waitFor(opts)
}
