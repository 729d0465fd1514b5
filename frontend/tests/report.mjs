// Each browser suite reports its count of scenarios to the file named by ENGRAM_TEST_RESULTS
// (one "suite<TAB>passed<TAB>failed" line), so `make test` can end with one summary line that
// shows a partial run for what it is.
import fs from 'node:fs'

export function reportSuite(name, passed, failed) {
  console.log(`${name}: ${passed} scenarios passed, ${failed} failed`)
  const file = process.env.ENGRAM_TEST_RESULTS
  if (file) fs.appendFileSync(file, `${name}\t${passed}\t${failed}\n`)
}
