//go:build !race

package memory

// raceBuild is set when the tests run under the race detector (race_on_test.go).
const raceBuild = false
