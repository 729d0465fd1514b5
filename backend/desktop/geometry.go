package desktop

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// geometryName is the file in the home that keeps the window's last size and position.
const geometryName = "window.json"

// Default window size and the smallest the window may be.
const (
	DefaultWidth  = 1280
	DefaultHeight = 800
	MinWidth      = 900
	MinHeight     = 560
)

// Geometry is the window's size and position (relative to its screen), saved on move, resize
// and close and restored at the next start so the window opens where the person left it.
type Geometry struct {
	X         int  `json:"x"`
	Y         int  `json:"y"`
	Width     int  `json:"width"`
	Height    int  `json:"height"`
	Maximised bool `json:"maximised,omitempty"`
}

// LoadGeometry reads the saved geometry of home; ok is false when there is none or it cannot
// be read (the window then opens at the default size, centred).
func LoadGeometry(home string) (g Geometry, ok bool) {
	b, err := os.ReadFile(filepath.Join(home, geometryName))
	if err != nil {
		return Geometry{}, false
	}
	if json.Unmarshal(b, &g) != nil || g.Width <= 0 || g.Height <= 0 {
		return Geometry{}, false
	}
	return g, true
}

// SaveGeometry writes g atomically (temp file then rename), so a crash mid-write never leaves
// a torn file for the next start.
func SaveGeometry(home string, g Geometry) error {
	b, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("desktop: unable to encode the window geometry: %w", err)
	}
	tmp, err := os.CreateTemp(home, ".window-*.json")
	if err != nil {
		return fmt.Errorf("desktop: unable to save the window geometry: %w", err)
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), filepath.Join(home, geometryName))
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("desktop: unable to save the window geometry: %w", werr)
	}
	return nil
}

// Clamp fits g on a screen of sw×sh pixels: never smaller than the minimum size, never larger
// than the screen, and placed so the whole window is visible (a window saved on a monitor
// that is gone, or on a larger screen, comes back into view). A zero screen size leaves the
// position and size as saved, apart from the minimum.
func (g Geometry) Clamp(sw, sh int) Geometry {
	g.Width, g.Height = max(g.Width, MinWidth), max(g.Height, MinHeight)
	if sw <= 0 || sh <= 0 {
		return g
	}
	g.Width, g.Height = min(g.Width, sw), min(g.Height, sh)
	g.X = min(max(g.X, 0), sw-g.Width)
	g.Y = min(max(g.Y, 0), sh-g.Height)
	return g
}
