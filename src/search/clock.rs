//! When a search under a time limit starts another iteration of its deepening.

use std::time::Duration;
// std::time::Instant panics on wasm32-unknown-unknown; web-time is std's on native.
use web_time::Instant;

/// When to start another iteration under a time limit.
pub(super) struct Clock {
    started: Instant,
    limit: Option<Duration>,
    managed: bool,
    /// When the last iteration ended, and how long it took.
    last_end: Duration,
    last_took: Duration,
    /// How many of the last iterations changed the best move.
    unstable: u32,
}

impl Clock {
    pub(super) fn new(started: Instant, limit: Option<Duration>, managed: bool) -> Clock {
        Clock {
            started,
            limit,
            managed,
            last_end: Duration::ZERO,
            last_took: Duration::ZERO,
            unstable: 0,
        }
    }

    /// After an iteration that did or did not change the best move: whether to start the
    /// next. Unmanaged, until the limit (the search is then cut mid-iteration and that work is
    /// lost). Managed, only when the next iteration, predicted to take as long as this one
    /// times the growth from the last, would end within half the time, or within all of it
    /// while the best move keeps changing.
    pub(super) fn another_iteration(&mut self, changed: bool) -> bool {
        let now = self.started.elapsed();
        let took = now - self.last_end;
        let growth = if self.last_took.is_zero() {
            4.0
        } else {
            (took.as_secs_f64() / self.last_took.as_secs_f64().max(1e-6)).clamp(1.5, 8.0)
        };
        self.last_end = now;
        self.last_took = took;
        self.unstable = if changed {
            2
        } else {
            self.unstable.saturating_sub(1)
        };
        let Some(limit) = self.limit else {
            return true;
        };
        if now >= limit {
            return false;
        }
        if !self.managed {
            return true;
        }
        let share = if self.unstable > 0 { 1.0 } else { 0.5 };
        now.as_secs_f64() + took.as_secs_f64() * growth <= limit.as_secs_f64() * share
    }
}
