//! The balance ladder of `tafl balance`: self-play at rising budgets, the attackers' share of
//! the decisive games at each budget (a rung), and whether that share has settled.
//!
//! A designer asks whether a variant is fair. A computer's answer depends on how well it plays:
//! at a few milliseconds a move the side with the simpler plan wins more than people's games
//! say (docs/balance.md). So the figure is measured at several budgets, and it is read where it
//! stops moving: the share is **settled** when the two top rungs agree (each one's share lies
//! within the other's 95% interval), and **still moving** otherwise, with the direction it
//! moves in, so that a designer knows which way a longer run would take it.
//!
//! The share counts decisive games only (the attackers' wins over all wins), as the people's
//! figures it is set beside do: a draw says nothing of which side the rules favour.

use serde::Serialize;

use super::duel::{Played, Tally};
use super::stats::{wilson, Rate};
use crate::game::Status;

/// The budgets of the default ladder, in milliseconds a move: the top rung is what a 2-core
/// machine plays an 11x11 variant's default run at within 15 minutes (docs/balance.md).
pub const DEFAULT_RUNGS: [u64; 3] = [25, 100, 400];

/// One rung's games, summed up.
#[derive(Clone, Debug, Serialize)]
pub struct Rung {
    /// The budget of a move, in milliseconds.
    pub ms: u64,
    /// The games played.
    pub games: u64,
    /// The attackers' wins.
    pub attackers_win: u64,
    /// The defenders' wins.
    pub defenders_win: u64,
    /// Draws, the games stopped at the ply cap included.
    pub draws: u64,
    /// Of the draws, the games stopped at the ply cap.
    pub capped: u64,
    /// The attackers' share of the decisive games; `None` when no game was decisive.
    pub share: Option<f64>,
    /// The share's 95% Wilson interval (0 to 1 when no game was decisive).
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The mean length of a game, in plies.
    pub mean_plies: f64,
    /// How the games ended: `king_escaped`, `encirclement`, `resigned`, `capped` ...
    pub reasons: std::collections::BTreeMap<String, u64>,
}

impl Rung {
    /// The rung at `ms` a move of `games`.
    pub fn of(ms: u64, games: &[Played]) -> Rung {
        Rung::counted(ms, games.iter().map(|g| (g.status, g.reason, g.plies)))
    }

    /// The rung at `ms` a move of games given as (result, ending, plies): `Ongoing` for a game
    /// the ply cap stopped. What the Python package's ladder counts, from its workers' games.
    pub fn counted<'a>(ms: u64, games: impl IntoIterator<Item = (Status, &'a str, usize)>) -> Rung {
        let tally = Tally::counted(games);
        let decisive = tally.attackers_win + tally.defenders_win;
        let Rate { rate, low, high } = wilson(tally.attackers_win, decisive);
        Rung {
            ms,
            games: decisive + tally.draw,
            attackers_win: tally.attackers_win,
            defenders_win: tally.defenders_win,
            draws: tally.draw,
            capped: tally.capped,
            share: (decisive > 0).then_some(rate),
            low,
            high,
            mean_plies: tally.mean_plies,
            reasons: tally.reasons,
        }
    }

    /// Whether this rung's share and `other`'s agree: each lies within the other's interval.
    fn agrees_with(&self, other: &Rung) -> bool {
        match (self.share, other.share) {
            (Some(a), Some(b)) => {
                (other.low..=other.high).contains(&a) && (self.low..=self.high).contains(&b)
            }
            _ => false,
        }
    }
}

/// Which way the share moves from the second rung from the top to the top one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trend {
    /// The top two rungs agree.
    Settled,
    /// The attackers' share grows with the budget.
    TowardsAttackers,
    /// The attackers' share shrinks with the budget.
    TowardsDefenders,
    /// A top rung had no decisive game, so there is no share to compare.
    Undecided,
}

/// What a ladder says: the rungs, the figure to read and whether it has settled.
#[derive(Clone, Debug, Serialize)]
pub struct Ladder {
    /// The rungs, lowest budget first.
    pub rungs: Vec<Rung>,
    /// Whether the top two rungs agree within their intervals.
    pub settled: bool,
    /// The figure a designer reads: the attackers' share of the decisive games at the top rung.
    pub share: Option<f64>,
    /// Which way the share moves at the top.
    pub trend: Trend,
}

impl Ladder {
    /// The ladder of `rungs` (sorted here by budget).
    pub fn of(mut rungs: Vec<Rung>) -> Ladder {
        rungs.sort_by_key(|r| r.ms);
        let top = rungs.last();
        let trend = match (rungs.len(), top) {
            (0, _) | (_, None) => Trend::Undecided,
            // One rung: nothing to compare it with, so it cannot be called settled.
            (1, Some(_)) => Trend::Undecided,
            (n, Some(top)) => {
                let below = &rungs[n - 2];
                match (below.share, top.share) {
                    _ if top.agrees_with(below) => Trend::Settled,
                    (Some(a), Some(b)) if b > a => Trend::TowardsAttackers,
                    (Some(_), Some(_)) => Trend::TowardsDefenders,
                    _ => Trend::Undecided,
                }
            }
        };
        Ladder {
            share: top.and_then(|r| r.share),
            settled: trend == Trend::Settled,
            trend,
            rungs,
        }
    }

    /// The verdict in words, for the terminal.
    pub fn verdict(&self) -> String {
        let Some(top) = self.rungs.last() else {
            return "no games were played".to_string();
        };
        let figure = |r: &Rung| match r.share {
            Some(s) => format!("{s:.2} ({:.2} to {:.2}) at {} ms", r.low, r.high, r.ms),
            None => format!("no decisive game at {} ms", r.ms),
        };
        match self.trend {
            Trend::Settled => format!(
                "settled: the attackers' share of the decisive games is {}, and the rung below \
                 agrees",
                figure(top)
            ),
            Trend::TowardsAttackers | Trend::TowardsDefenders => {
                let below = &self.rungs[self.rungs.len() - 2];
                let side = if self.trend == Trend::TowardsAttackers {
                    "attackers"
                } else {
                    "defenders"
                };
                format!(
                    "still moving towards the {side}: the attackers' share of the decisive games \
                     went from {} to {}; a longer top rung (--rungs) or more games (--games) \
                     would tell where it stops",
                    figure(below),
                    figure(top)
                )
            }
            Trend::Undecided => format!(
                "undecided: {}; more games (--games), another rung or a longer cap would give \
                 a figure",
                figure(top)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(attackers: usize, defenders: usize, draws: usize) -> Vec<Played> {
        let game = |status, reason| Played {
            status,
            reason,
            plies: 10,
        };
        std::iter::repeat_n(game(Status::AttackersWin, "king_captured"), attackers)
            .chain(std::iter::repeat_n(
                game(Status::DefendersWin, "king_escaped"),
                defenders,
            ))
            .chain(std::iter::repeat_n(game(Status::Ongoing, "capped"), draws))
            .collect()
    }

    #[test]
    fn the_share_counts_decisive_games_only() {
        let rung = Rung::of(100, &games(3, 9, 8));
        assert_eq!(rung.share, Some(0.25));
        assert!(rung.low < 0.25 && rung.high > 0.25);
        assert_eq!((rung.games, rung.draws, rung.capped), (20, 8, 8));
        let none = Rung::of(100, &games(0, 0, 5));
        assert_eq!(none.share, None);
        assert_eq!((none.low, none.high), (0.0, 1.0));
    }

    #[test]
    fn two_agreeing_top_rungs_settle_and_a_jump_is_still_moving() {
        let settled = Ladder::of(vec![
            Rung::of(400, &games(40, 60, 0)),
            Rung::of(25, &games(5, 95, 0)),
            Rung::of(100, &games(42, 58, 0)),
        ]);
        assert_eq!(settled.rungs[0].ms, 25, "sorted by budget");
        assert!(settled.settled);
        assert_eq!(settled.share, Some(0.4));
        assert!(settled.verdict().starts_with("settled"));

        let moving = Ladder::of(vec![
            Rung::of(25, &games(5, 95, 0)),
            Rung::of(100, &games(40, 60, 0)),
        ]);
        assert!(!moving.settled);
        assert_eq!(moving.trend, Trend::TowardsAttackers);
        assert!(moving
            .verdict()
            .contains("still moving towards the attackers"));
        let falling = Ladder::of(vec![
            Rung::of(25, &games(60, 40, 0)),
            Rung::of(100, &games(10, 90, 0)),
        ]);
        assert_eq!(falling.trend, Trend::TowardsDefenders);

        // No decisive game at the top: no figure, and not settled.
        let undecided = Ladder::of(vec![
            Rung::of(25, &games(5, 5, 0)),
            Rung::of(100, &games(0, 0, 10)),
        ]);
        assert_eq!((undecided.settled, undecided.share), (false, None));
        assert_eq!(undecided.trend, Trend::Undecided);
        // A single rung is never settled.
        assert!(!Ladder::of(vec![Rung::of(25, &games(5, 5, 0))]).settled);
    }
}
