//go:build race

package recall

// raceBuild is set when the tests run under the race detector, which makes a search about ten
// times slower.
const raceBuild = true
