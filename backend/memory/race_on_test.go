//go:build race

package memory

// raceBuild is set when the tests run under the race detector: pure computations whose
// data-race checks add nothing are sampled then and run in full without it (the Makefile's
// test-go and build/scripts/test.sh run them in the "identity regression" step).
const raceBuild = true
