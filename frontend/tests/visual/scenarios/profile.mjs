// "About you" in the reader's empty state: the derived profile, both languages and themes, and
// the empty profile of a new person; a click on an entry opens the memory that says it.
export default async function ({ open, check, COMBOS }) {
  for (const [l, th, language] of COMBOS) {
    await open(`${l}-${th}-profile`, { language, theme: th }, async (page) => {
      await page.waitForSelector('[data-test="profile-card"][data-state="ready"] [data-test="profile-preferred_tools"]')
    })
  }
  await open('en-light-profile-empty', { language: 'en', theme: 'light', profile: 'empty' }, async (page) => {
    await page.waitForSelector('[data-test="profile-card"][data-state="empty"] [data-test="profile-empty"]')
  })
  await open('en-light-profile-open', { language: 'en', theme: 'light' }, async (page) => {
    const tag = page.locator('[data-test="profile-about"] .profile-tag').first()
    const title = (await tag.textContent()).trim()
    await tag.click()
    await page.waitForSelector('[data-test="reader-title"]')
    await check(page.locator('[data-test="reader-title"]').textContent().then((s) => s.trim() === title), 'the entry opened its memory')
  })
}
