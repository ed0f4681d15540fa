//! Uniformly random games, for benchmarks and statistics.

use super::bitboard::Bits;
use super::core::{Core, Pos, RawMove};
use super::GameOutcome;
use crate::ir::Side;

/// A small seeded pseudo-random generator (splitmix64): deterministic on every platform, fast,
/// and with no dependency; statistical quality is ample for picking random moves.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0), by multiply-shift: the bias is below 2^-50 for the move
    /// counts of a board game, and it avoids a division.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// The generator for game `game` of a run seeded with `seed`: each game has its own stream,
    /// so a run split over threads plays the same games as on one thread.
    pub fn for_game(seed: u64, game: u64) -> Rng {
        let mut mixer = Rng(seed ^ game.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        Rng(mixer.next_u64())
    }
}

/// The totals of a run of random games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutSummary {
    /// Games played.
    pub games: u64,
    /// Plies played over all games.
    pub plies: u64,
    /// Games the attackers won.
    pub attackers_win: u64,
    /// Games the defenders won.
    pub defenders_win: u64,
    /// Games drawn.
    pub draw: u64,
    /// Games stopped at the ply cap, undecided.
    pub capped: u64,
}

impl PlayoutSummary {
    /// The totals of two runs together.
    pub fn merge(self, other: PlayoutSummary) -> PlayoutSummary {
        PlayoutSummary {
            games: self.games + other.games,
            plies: self.plies + other.plies,
            attackers_win: self.attackers_win + other.attackers_win,
            defenders_win: self.defenders_win + other.defenders_win,
            draw: self.draw + other.draw,
            capped: self.capped + other.capped,
        }
    }
}

/// Plays games `first..first + games` of the run seeded `seed`.
pub(crate) fn run<B: Bits>(
    core: &Core<B>,
    start: &Pos<B>,
    first: u64,
    games: u64,
    seed: u64,
    cap: u32,
) -> PlayoutSummary {
    let mut summary = PlayoutSummary::default();
    let mut moves: Vec<RawMove> = Vec::with_capacity(256);
    let mut history: Vec<u64> = Vec::with_capacity(cap as usize + 1);
    for game in first..first + games {
        let mut rng = Rng::for_game(seed, game);
        let mut pos = *start;
        history.clear();
        let mut ending = None;
        let mut plies = 0;
        while plies < cap {
            moves.clear();
            core.gen_moves(&pos, &mut moves);
            if moves.is_empty() {
                ending = Some(core.no_moves_ending(pos.to_move));
                break;
            }
            let mv = moves[rng.below(moves.len())];
            history.push(pos.hash);
            let step = core.step(&mut pos, mv, &history);
            plies += 1;
            if step.ending.is_some() {
                ending = step.ending;
                break;
            }
        }
        summary.games += 1;
        summary.plies += u64::from(plies);
        match ending.map(|e| e.outcome) {
            Some(GameOutcome::Win(Side::Attackers)) => summary.attackers_win += 1,
            Some(GameOutcome::Win(Side::Defenders)) => summary.defenders_win += 1,
            Some(GameOutcome::Draw) => summary.draw += 1,
            None => summary.capped += 1,
        }
    }
    summary
}
