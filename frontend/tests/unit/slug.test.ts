import { describe, expect, it } from 'vitest'
import { validSlug } from '@/api/types'

// The form's slug check follows the store's (format.ValidSlug): a Chinese slug the store takes
// ("喜欢川菜") was drawn as invalid; what the store refuses is refused here too.
describe('validSlug', () => {
  it('takes what the store takes', () => {
    for (const s of ['abc', 'prefers-dark-mode', '猫', '喜欢川菜', '张三-works-at-阿里巴巴', '长'.repeat(21), 'a'.repeat(64)]) {
      expect(validSlug(s), s).toBe(true)
    }
  })
  it('refuses what the store refuses', () => {
    for (const s of ['', 'ab', '-abc', 'abc-', 'Abc', 'a b', 'a.b', '长'.repeat(22), 'a'.repeat(65), 'ａｂｃ', '\uF900xx', '사랑', 'café']) {
      expect(validSlug(s), s).toBe(false)
    }
  })
})
