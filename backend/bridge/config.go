package bridge

import (
	"log/slog"
	"net/http"
	"os"
	"time"
)

// DefaultAddr is where `engram serve` listens unless told otherwise.
const DefaultAddr = "127.0.0.1:47821"

// Config tunes a bridge; zero values take the defaults.
type Config struct {
	Addr string
	// AllowRemote must be set to listen on a non-loopback address.
	AllowRemote bool
	Home        string
	// MaxMessage bounds one incoming websocket message (1 MiB).
	MaxMessage int64
	// RatePerSec and Burst bound requests per connection.
	RatePerSec float64
	Burst      int
	// SendQueue bounds the messages waiting for a slow client before it is dropped.
	SendQueue int
	// Concurrency bounds requests in flight per connection.
	Concurrency int
	// RefusalBudget bounds the rate-limit replies waiting in one client's send queue; refused
	// requests beyond it get no reply, so a flood cannot fill the queue and get its own
	// connection (with its legitimate answers) dropped as a slow client.
	RefusalBudget int
	// MaxConns bounds open connections, plain HTTP and websockets together; at it, the
	// connection waiting on its client the longest is closed to make room (an idle keep-alive
	// first, then one whose request headers never finished, then a websocket that stopped
	// reading), and when there is none a new connection gets 503 and is closed, so a local
	// process can neither exhaust file descriptors nor lock the person out.
	MaxConns int
	// Plain HTTP: the time to read the headers, the whole request, write the answer, and how
	// long a keep-alive connection may sit idle. A websocket leaves these behind once upgraded.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// PingInterval is how long a websocket may stay quiet before it is pinged; a client that
	// does not answer within PongTimeout is closed. A browser answers pings on its own, so an
	// idle UI stays connected.
	PingInterval, PongTimeout time.Duration
	Logger                    *slog.Logger
	// OnTokenChange, when set, is called (on its own goroutine) when the bridge takes up a token
	// another process wrote (`engram bridge token --regenerate` while it runs), so what shows
	// the URL can show the new one: `engram serve` printed only the URL it started with, and
	// Settings → Remote access kept the old one until reopened.
	OnTokenChange func()
	// MCP, when set, serves MCP's streamable HTTP at /mcp behind the same token (as a Bearer
	// header) and the same Host and Origin checks.
	MCP http.Handler
}

func (c *Config) defaults() {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.MaxMessage <= 0 {
		c.MaxMessage = 1 << 20
	}
	if c.RatePerSec <= 0 {
		c.RatePerSec = 200
	}
	if c.Burst <= 0 {
		c.Burst = 400
	}
	if c.SendQueue <= 0 {
		c.SendQueue = 256
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 8
	}
	if c.RefusalBudget <= 0 {
		c.RefusalBudget = 8
	}
	if c.MaxConns <= 0 {
		c.MaxConns = 128
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{
		{&c.ReadHeaderTimeout, 10 * time.Second}, {&c.ReadTimeout, 30 * time.Second},
		{&c.WriteTimeout, time.Minute}, {&c.IdleTimeout, time.Minute},
		{&c.PingInterval, 30 * time.Second}, {&c.PongTimeout, 30 * time.Second},
	} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
}
