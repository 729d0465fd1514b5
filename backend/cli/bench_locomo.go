package cli

import (
	"context"
	"fmt"
	"io"
)

// runLocomo is wired to the retrieval benchmark once recall lands.
func runLocomo(_ context.Context, path string, _ bool, _ io.Writer) error {
	return fmt.Errorf("bench locomo %s: the recall benchmark is not in this build yet", path)
}
