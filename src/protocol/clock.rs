//! How much of a clock one move may spend.
//!
//! The rule, the same for every protocol: keep a safety margin of 50 ms plus 5% of the time
//! left (for the search's overshoot, the pipe and the host's own bookkeeping), then spend a
//! thirtieth of what remains (or `1/moves_to_go` when the host says how many moves are left)
//! plus three quarters of the increment, and never more than half of what remains. The search
//! keeps to its time even inside its first depth and still answers with a legal move (the best
//! of the root moves it finished, or its first), so a nearly empty clock still gets a move.

use std::time::Duration;

/// The margin kept whatever the clock: 50 ms.
pub const MARGIN: Duration = Duration::from_millis(50);

/// The thinking time for one move with `remaining` on the clock, `increment` added after the
/// move, and `moves_to_go` moves before the next time control (if the host says).
///
/// ```
/// use std::time::Duration;
/// use tafl::protocol::clock::budget;
/// let ms = |n| Duration::from_millis(n);
/// // 60 s, no increment: 57 s usable, a thirtieth of it.
/// assert_eq!(budget(ms(60_000), ms(0), None), ms(1_898));
/// // An increment is spent, but never more than half of what is left.
/// assert_eq!(budget(ms(1_000), ms(10_000), None), ms(450));
/// assert_eq!(budget(ms(10), ms(0), None), ms(0));
/// ```
pub fn budget(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Duration {
    let margin = MARGIN + remaining / 20;
    let usable = remaining.saturating_sub(margin);
    let moves = moves_to_go.unwrap_or(30).max(1);
    let spend = (usable / moves)
        .saturating_add(increment.saturating_mul(3) / 4)
        .min(usable / 2);
    // Whole milliseconds: the protocols count in them.
    Duration::from_millis(u64::try_from(spend.as_millis()).unwrap_or(u64::MAX))
}

/// The thinking time for one move under OpenTafl's clock: main time, then `overtimes` periods
/// of `period` each (byo-yomi: a period is lost only when a move takes all of it).
/// `in_overtime` says main time is spent and `remaining` is what is left of the current period.
///
/// ```
/// use std::time::Duration;
/// use tafl::protocol::clock::overtime_budget;
/// let ms = |n| Duration::from_millis(n);
/// // In overtime: half of the period that is running.
/// assert_eq!(overtime_budget(ms(10_000), true, ms(10_000), 3), ms(4_725));
/// // Main time nearly gone, but periods left: up to half a period more.
/// assert_eq!(overtime_budget(ms(100), false, ms(10_000), 3), ms(4_725));
/// ```
pub fn overtime_budget(
    remaining: Duration,
    in_overtime: bool,
    period: Duration,
    overtimes: u32,
) -> Duration {
    let in_period = |left: Duration| budget(left, Duration::ZERO, Some(1));
    if in_overtime {
        return in_period(remaining);
    }
    let main = budget(remaining, Duration::ZERO, None);
    if overtimes > 0 && !period.is_zero() {
        // Main time runs out first, then a fresh period starts: spending up to half a period
        // beyond the main time loses nothing.
        main.max(in_period(period))
    } else {
        main
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_never_reaches_the_time_left() {
        for remaining in [0u64, 1, 49, 50, 51, 100, 1_000, 60_000, 3_600_000] {
            for increment in [0u64, 100, 5_000, 60_000] {
                for moves in [None, Some(0), Some(1), Some(40)] {
                    let remaining = Duration::from_millis(remaining);
                    let spent = budget(remaining, Duration::from_millis(increment), moves);
                    assert!(
                        spent <= remaining.saturating_sub(MARGIN) / 2,
                        "{remaining:?} {increment} {moves:?} -> {spent:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn absurd_clocks_do_not_overflow() {
        let most = Duration::MAX;
        assert!(budget(most, most, None) > Duration::from_secs(1 << 40));
        assert!(overtime_budget(most, false, most, u32::MAX) > Duration::ZERO);
    }

    #[test]
    fn more_time_or_fewer_moves_never_gives_less() {
        let ms = Duration::from_millis;
        assert!(budget(ms(60_000), ms(0), None) > budget(ms(30_000), ms(0), None));
        assert!(budget(ms(60_000), ms(0), Some(5)) > budget(ms(60_000), ms(0), Some(30)));
        assert!(budget(ms(60_000), ms(2_000), None) > budget(ms(60_000), ms(0), None));
    }
}
