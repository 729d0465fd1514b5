package organizer

import (
	"context"
	"time"

	"engram/backend/memory"

	"github.com/oklog/ulid/v2"
)

// Reasons a timer tick did not start a run (Status.LastSkip); i18n "organizer.skip.<reason>".
const (
	SkipBusy       = "busy"
	SkipTooSoon    = "too_soon"
	SkipTooFewNew  = "too_few_new_memories"
	SkipGateFailed = "gate_failed"
	// SkipNothingToFree: a scope is over the organizer's target, but the last scheduled run
	// freed nothing there and no memory changed since, so another run would do the same.
	SkipNothingToFree = "nothing_to_free"
)

// Settings returns the organizer settings.
func (s *Service) Settings(ctx context.Context) (Settings, error) { return s.loadSettings(ctx) }

func (s *Service) loadSettings(ctx context.Context) (Settings, error) {
	st := s.defaults
	if _, err := loadJSON(ctx, s.store, settingsKey, &st); err != nil {
		return s.defaults, err
	}
	if st.Validate() != nil {
		return s.defaults, nil
	}
	return st, nil
}

func (s *Service) loadSchedule(ctx context.Context) schedule {
	var sc schedule
	if _, err := loadJSON(ctx, s.store, scheduleKey, &sc); err != nil {
		s.log.Warn("organizer: unable to read the schedule", "err", err)
	}
	return sc
}

// UpdateSettings validates and saves a patch; a change of enabled or frequency re-arms the
// timer from now (or disarms it).
func (s *Service) UpdateSettings(ctx context.Context, p SettingsPatch) (Settings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, err := s.loadSettings(ctx)
	if err != nil {
		return cur, err
	}
	next, err := cur.Apply(p)
	if err != nil {
		return cur, err
	}
	if err := saveJSON(ctx, s.store, settingsKey, next); err != nil {
		return cur, err
	}
	if next.Enabled != cur.Enabled || next.FrequencyHours != cur.FrequencyHours {
		s.armLocked(true, 0)
	}
	return next, nil
}

// armLocked (re)arms the one scheduling timer from next_run_at, or disarms it when the
// scheduler or the settings say so. reset moves next_run_at to now + frequency.
func (s *Service) armLocked(reset bool, minDelay time.Duration) {
	if s.timer != nil {
		s.timer.Stop()
		s.timer, s.timerAt = nil, time.Time{}
	}
	if !s.running() || !s.scheduler {
		return
	}
	ctx := s.ctx
	st, err := s.loadSettings(ctx)
	if err != nil {
		s.log.Warn("organizer: unable to read settings; the timer stays off", "err", err)
		return
	}
	sc := s.loadSchedule(ctx)
	if !st.Enabled {
		if !sc.NextRunAt.IsZero() {
			sc.NextRunAt = time.Time{}
			if err := saveJSON(ctx, s.store, scheduleKey, sc); err != nil {
				s.log.Warn("organizer: unable to save the schedule", "err", err)
			}
		}
		return
	}
	now := s.clock.Now()
	if reset || sc.NextRunAt.IsZero() || sc.NextRunAt.After(now.Add(st.frequency())) {
		sc.NextRunAt = now.Add(st.frequency())
		if err := saveJSON(ctx, s.store, scheduleKey, sc); err != nil {
			s.log.Warn("organizer: unable to save the schedule", "err", err)
		}
	}
	d := max(sc.NextRunAt.Sub(now), minDelay)
	s.timerAt = now.Add(d)
	s.timer = s.clock.AfterFunc(d, s.onTimer)
}

// onTimer is a scheduled tick: check the gates, queue a scheduled run when they pass, and arm
// the next tick one frequency from now.
func (s *Service) onTimer() {
	var events []Progress
	s.mu.Lock()
	if !s.running() {
		s.mu.Unlock()
		return
	}
	s.timer, s.timerAt = nil, time.Time{}
	ctx := s.ctx
	st, err := s.loadSettings(ctx)
	if err != nil || !st.Enabled {
		s.mu.Unlock()
		return
	}
	now := s.clock.Now()
	skip, err := s.gateLocked(ctx, st, now)
	if err != nil {
		s.log.Warn("organizer: unable to check the run gates", "err", err)
		skip = SkipGateFailed
	}
	sc := s.loadSchedule(ctx)
	sc.LastCheckAt, sc.LastSkip, sc.NextRunAt = now, skip, now.Add(st.frequency())
	if err := saveJSON(ctx, s.store, scheduleKey, sc); err != nil {
		s.log.Warn("organizer: unable to save the schedule", "err", err)
	}
	if skip == "" {
		id := ulid.Make().String()
		if err := s.runs.insertQueued(ctx, id, TriggerScheduled, st.Mode, nil, now); err != nil {
			s.log.Warn("organizer: unable to queue a scheduled run", "err", err)
		} else {
			s.drainLocked()
			if s.active == nil || s.active.id != id {
				events = append(events, Progress{RunID: id, Status: StatusQueued})
			}
		}
	} else {
		s.log.Info("organizer: scheduled run skipped", "reason", skip)
		s.drainLocked() // queued runs nobody has taken (their process exited) start here
	}
	s.armLocked(false, 0)
	s.mu.Unlock()
	for _, p := range events {
		s.progress(p)
	}
}

// gateLocked returns why a scheduled run must not start now ("" when it may): a run active
// or waiting anywhere on the home, too soon after the last finished scheduled run, too few
// memories created since it.
func (s *Service) gateLocked(ctx context.Context, st Settings, now time.Time) (string, error) {
	if s.busy {
		return SkipBusy, nil
	}
	s.recoverLocked()
	for _, status := range []Status{StatusRunning, StatusQueued} {
		n, err := s.runs.count(ctx, status)
		if err != nil {
			return "", err
		}
		if n > 0 {
			return SkipBusy, nil
		}
	}
	last, ok, err := s.runs.lastScheduledDone(ctx)
	if err != nil || !ok {
		return "", err
	}
	if st.MinHoursBetweenRuns > 0 && now.Sub(last) < time.Duration(st.MinHoursBetweenRuns)*time.Hour {
		return SkipTooSoon, nil
	}
	if st.MinNewMemories > 0 {
		n, err := s.runs.createdSince(ctx, last)
		if err != nil {
			return "", err
		}
		if n < st.MinNewMemories {
			return s.pressedGate(ctx, n)
		}
	}
	return "", nil
}

// pressedGate decides a tick with too few new memories since the last scheduled run. A scope
// over the organizer's target (limit − 100: the quota ladder above normal) is run anyway: a
// full scope refuses new memories, so "at least N new since the last run" skipped its runs for
// ever and nothing tidied it. It is skipped only when the last scheduled run removed nothing and
// no memory was written or changed since it ended (newSince is how many were created): that run
// would be repeated as it was, each tick, freeing nothing.
func (s *Service) pressedGate(ctx context.Context, newSince int) (string, error) {
	q, err := s.store.Quota(ctx)
	if err != nil {
		return "", err
	}
	if q.Level == "" || q.Level == memory.LevelNormal {
		return SkipTooFewNew, nil
	}
	rows, err := s.runs.list(ctx, []Status{StatusDone}, 50, 0)
	if err != nil {
		return "", err
	}
	var last *runRow
	for _, r := range rows {
		if r.Trigger == TriggerScheduled {
			last = r
			break
		}
	}
	if last == nil || last.Counts.Removed > 0 || last.FinalCount < last.InitialCount || newSince > 0 {
		return "", nil
	}
	since := last.StartedAt
	if last.FinishedAt != nil {
		since = *last.FinishedAt
	}
	newest, _, err := s.store.List(ctx, memory.Filter{NoDaily: true, Limit: 1})
	if err != nil {
		return "", err
	}
	if len(newest) > 0 && newest[0].Updated.After(since) {
		return "", nil
	}
	return SkipNothingToFree, nil
}
