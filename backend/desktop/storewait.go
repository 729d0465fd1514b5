package desktop

import (
	"context"
	"time"
)

// tellWhileOpening tells the page, every interval from the first one on, that the store is
// still opening (StoreWaitingEvent with the whole seconds since the window started), and once
// it opened, that it has (StoreOpenEvent; both from this goroutine, so in that order; nothing
// after a failed open, whose window closes). Why: the page's calls wait for the store, and a
// store held by another process (a long migration, an import) or migrating itself left a window
// that waited with nothing saying why. Repeated, because the page subscribes only once its
// script has run.
func tellWhileOpening(ctx context.Context, opened <-chan bool, every time.Duration, emit func(name string, data ...any)) {
	start := time.Now()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case ok := <-opened:
			if ok {
				emit(StoreOpenEvent)
			}
			return
		case <-ctx.Done():
			return
		case now := <-tick.C:
			emit(StoreWaitingEvent, int(now.Sub(start).Seconds()))
		}
	}
}
