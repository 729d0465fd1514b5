package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DiscoveryFile, in the home, tells other processes on this machine where the running
// bridge (`engram serve`, or the desktop app with Remote access on) listens: the hook hands
// its turns to that process instead of starting one. It is written when the bridge listens
// and removed when it closes; the token stays in bridge.token.
const DiscoveryFile = "bridge.json"

// TokenFile is the bridge's token file in the home (the bridge owns it).
const TokenFile = "bridge.token"

// Discovery is the content of DiscoveryFile.
type Discovery struct {
	// URL is the bridge's base address, http://127.0.0.1:PORT (no token).
	URL string `json:"url"`
	PID int    `json:"pid"`
}

// WriteDiscovery publishes d in home (mode 0600, replaced atomically).
func WriteDiscovery(home string, d Discovery) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(home, DiscoveryFile+".tmp-*")
	if err != nil {
		return fmt.Errorf("hook: unable to publish the bridge address: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("hook: unable to publish the bridge address: %w", err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("hook: unable to publish the bridge address: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("hook: unable to publish the bridge address: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(home, DiscoveryFile)); err != nil {
		return fmt.Errorf("hook: unable to publish the bridge address: %w", err)
	}
	return nil
}

// RemoveDiscovery removes the discovery file when it still names mine: a second bridge that
// took over the home keeps its own.
func RemoveDiscovery(home string, mine Discovery) error {
	d, err := ReadDiscovery(home)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if d != mine {
		return nil
	}
	if err := os.Remove(filepath.Join(home, DiscoveryFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("hook: unable to remove the bridge address: %w", err)
	}
	return nil
}

// ReadDiscovery reads the discovery file of home.
func ReadDiscovery(home string) (Discovery, error) {
	data, err := os.ReadFile(filepath.Join(home, DiscoveryFile))
	if err != nil {
		return Discovery{}, err
	}
	var d Discovery
	if err := json.Unmarshal(data, &d); err != nil {
		return Discovery{}, fmt.Errorf("hook: %s is not valid: %w", DiscoveryFile, err)
	}
	if !strings.HasPrefix(d.URL, "http://") || d.PID <= 0 {
		return Discovery{}, fmt.Errorf("hook: %s names no bridge", DiscoveryFile)
	}
	return d, nil
}

// readToken reads the bridge token of home.
func readToken(home string) (string, error) {
	data, err := os.ReadFile(filepath.Join(home, TokenFile))
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" {
		return "", fmt.Errorf("hook: %s is empty", TokenFile)
	}
	return tok, nil
}
