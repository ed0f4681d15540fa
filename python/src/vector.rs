//! Many games stepped together (issue 66): the Rust half of `tafl.vector.VectorEnv`.
//!
//! One call steps every game, on rayon's threads with the GIL released, and writes the
//! observations, legal-action masks, rewards, terminations and truncations into numpy arrays
//! this object made once: no Python object is made per game or per step. The encodings are
//! the single-game environment's: [`observation::write_planes`] with the side-to-move plane and
//! [`Actions::write_mask`]. A game that ends is reset in the same step (its last position goes
//! to `final_obs`), so every game always has a legal action to take.

use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use tafl::engine::Rng;
use tafl::{Game, Side, Status};

use crate::actions::Actions;
use crate::args;
use crate::errors::IllegalMoveError;
use crate::observation;
use crate::variant::Variant;

/// The most games one vector holds: 65,536 Copenhagen games take 330 MB of masks and
/// observations; a larger number is more likely a slip than a plan.
pub const MAX_ENVS: u64 = 65_536;

/// `winner` of a game: no one (the game goes on, was drawn or was cut at the ply cap).
const NO_WINNER: i8 = -1;

/// The number of a side in `to_move` and `winner`: 0 the attackers, 1 the defenders.
fn side_number(side: Side) -> i8 {
    match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    }
}

/// The legal moves of `game`, none once it is over: [`Game::legal_moves`] without the sort.
fn legal_moves(game: &Game) -> Vec<tafl::Move> {
    if game.is_over() {
        return Vec::new();
    }
    game.engine().legal_moves_unordered(game.position())
}

/// One game of the vector, with its random streams.
struct Slot {
    game: Game,
    /// The legal actions now, in move order: how an action is checked and drawn without a
    /// second move generation (a linear search of some hundred numbers costs less than
    /// sorting them at every step).
    legal: Vec<u32>,
    /// Draws the opening plies of each new game.
    openings: Rng,
    /// Draws the actions `sample_actions` proposes.
    sampler: Rng,
}

/// The arrays of one game: its rows of the shared numpy arrays.
struct Row<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [bool],
    reward: &'a mut f32,
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    to_move: &'a mut i8,
    winner: &'a mut i8,
    ended: &'a mut bool,
    final_obs: &'a mut [u8],
}

/// What does not change while the games run: the variant's engine, numbering and settings.
struct Setting<'a> {
    engine: &'a std::sync::Arc<tafl::Engine>,
    actions: &'a Actions,
    openings: u32,
    max_plies: usize,
}

impl Setting<'_> {
    /// A new game of `slot`, after its opening plies: random moves that do not end the game
    /// (a move that would is taken back and another drawn; if every move would, the opening
    /// stops there).
    fn new_game(&self, slot: &mut Slot) {
        let mut game = Game::new(self.engine.clone());
        for _ in 0..self.openings {
            let mut moves = game.legal_moves();
            let mut played = false;
            while !played && !moves.is_empty() {
                let mv = moves.swap_remove(slot.openings.below(moves.len()));
                // `mv` comes from this very position's legal moves, so it plays.
                played = game.play(mv).is_ok_and(|ply| ply.ending.is_none());
                if !played {
                    game.undo();
                }
            }
            if !played {
                break;
            }
        }
        slot.game = game;
    }

    /// Writes the observation, mask and side to move of `slot`'s game into `row`, and keeps
    /// the legal actions.
    fn observe(&self, slot: &mut Slot, row: &mut Row<'_>) {
        let game = &slot.game;
        observation::write_planes(self.engine, game.position(), true, row.obs);
        slot.legal.clear();
        // Every legal move has an action (the numbering is chosen so), below `count`, which
        // fits a u32 (at most 361 x 361 from-to pairs).
        slot.legal.extend(
            legal_moves(game)
                .into_iter()
                .filter_map(|mv| self.actions.encode(mv))
                .map(|a| a as u32),
        );
        row.mask.fill(false);
        for &action in &slot.legal {
            row.mask[action as usize] = true;
        }
        *row.to_move = side_number(game.to_move());
    }

    /// Plays `action` (checked legal) in `slot`, fills `row`, and resets a game that ended.
    fn step(&self, slot: &mut Slot, action: u32, row: &mut Row<'_>) {
        let mover = slot.game.to_move();
        // Checked against `legal` before any game moved, so it decodes to a legal move.
        let played = self
            .actions
            .decode(action as usize)
            .map(|mv| slot.game.play(mv).is_ok());
        debug_assert_eq!(played, Some(true), "a checked action plays");
        let winner = match slot.game.status() {
            Status::AttackersWin => Some(Side::Attackers),
            Status::DefendersWin => Some(Side::Defenders),
            Status::Ongoing | Status::Draw => None,
        };
        *row.reward = match winner {
            Some(side) if side == mover => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        *row.terminated = slot.game.is_over();
        *row.truncated = !*row.terminated && slot.game.plies().len() >= self.max_plies;
        *row.winner = winner.map_or(NO_WINNER, side_number);
        *row.ended = *row.terminated || *row.truncated;
        if *row.ended {
            observation::write_planes(self.engine, slot.game.position(), true, row.final_obs);
            self.new_game(slot);
        }
        self.observe(slot, row);
    }
}

/// The engine of `tafl.vector.VectorEnv`: `num_envs` games of one variant and the numpy
/// arrays their observations are written into. Use it through `tafl.vector.VectorEnv`.
#[pyclass(module = "tafl._tafl")]
pub struct VectorCore {
    variant: Variant,
    slots: Vec<Slot>,
    openings: u32,
    max_plies: usize,
    obs: Py<PyArray4<u8>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray1<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_move: Py<PyArray1<i8>>,
    winner: Py<PyArray1<i8>>,
    ended: Py<PyArray1<bool>>,
    final_obs: Py<PyArray4<u8>>,
}

/// A numpy array borrowed for writing, or `ValueError` when it cannot be (a caller made it
/// read-only, or it is borrowed elsewhere).
macro_rules! rows {
    ($py:expr, $array:expr) => {
        $array.bind($py).try_readwrite().map_err(|e| {
            PyValueError::new_err(format!("the environment's arrays cannot be written: {e}"))
        })?
    };
}

impl VectorCore {
    /// Runs `each` on every game with its rows of the arrays, on rayon's threads and with the
    /// GIL released.
    fn run<F>(&mut self, py: Python<'_>, each: F) -> PyResult<()>
    where
        F: Fn(&Setting<'_>, usize, &mut Slot, &mut Row<'_>) + Sync,
    {
        let mut obs = rows!(py, self.obs);
        let mut mask = rows!(py, self.mask);
        let mut rewards = rows!(py, self.rewards);
        let mut terminated = rows!(py, self.terminated);
        let mut truncated = rows!(py, self.truncated);
        let mut to_move = rows!(py, self.to_move);
        let mut winner = rows!(py, self.winner);
        let mut ended = rows!(py, self.ended);
        let mut final_obs = rows!(py, self.final_obs);
        let contiguous = |e: numpy::AsSliceError| {
            PyValueError::new_err(format!("the environment's arrays: {e}"))
        };
        let obs_len = observation::plane_count(&self.variant.engine, true)
            * observation::plane_size(&self.variant.engine);
        let action_count = self.variant.actions.count();
        let mut rows: Vec<Row<'_>> = obs
            .as_slice_mut()
            .map_err(contiguous)?
            .chunks_mut(obs_len)
            .zip(
                mask.as_slice_mut()
                    .map_err(contiguous)?
                    .chunks_mut(action_count),
            )
            .zip(rewards.as_slice_mut().map_err(contiguous)?)
            .zip(terminated.as_slice_mut().map_err(contiguous)?)
            .zip(truncated.as_slice_mut().map_err(contiguous)?)
            .zip(to_move.as_slice_mut().map_err(contiguous)?)
            .zip(winner.as_slice_mut().map_err(contiguous)?)
            .zip(ended.as_slice_mut().map_err(contiguous)?)
            .zip(
                final_obs
                    .as_slice_mut()
                    .map_err(contiguous)?
                    .chunks_mut(obs_len),
            )
            .map(
                |(
                    (((((((obs, mask), reward), terminated), truncated), to_move), winner), ended),
                    final_obs,
                )| Row {
                    obs,
                    mask,
                    reward,
                    terminated,
                    truncated,
                    to_move,
                    winner,
                    ended,
                    final_obs,
                },
            )
            .collect();
        let setting = Setting {
            engine: &self.variant.engine,
            actions: &self.variant.actions,
            openings: self.openings,
            max_plies: self.max_plies,
        };
        let slots = &mut self.slots;
        py.detach(|| {
            slots
                .par_iter_mut()
                .zip(rows.par_iter_mut())
                .enumerate()
                .with_min_len(8)
                .for_each(|(i, (slot, row))| each(&setting, i, slot, row));
        });
        Ok(())
    }
}

#[pymethods]
impl VectorCore {
    /// `num_envs` games of `variant` (1 to 65,536), each opened with `openings` random plies
    /// (fewer than `max_plies`) drawn from `seed`, cut at `max_plies` plies. The games start on `reset`.
    #[new]
    #[pyo3(signature = (variant, num_envs, seed, openings, max_plies))]
    fn new(
        py: Python<'_>,
        variant: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = args::seed)] seed: u64,
        #[pyo3(from_py_with = args::openings)] openings: u32,
        max_plies: &Bound<'_, PyAny>,
    ) -> PyResult<VectorCore> {
        let variant = Variant::resolve(py, variant)?;
        let n = args::whole(num_envs, "num_envs", 1, MAX_ENVS)? as usize;
        let max_plies = args::whole(max_plies, "max_plies", 1, u64::from(u32::MAX))? as usize;
        // Opening plies count toward the cap, and each is a move generation: more than the cap
        // would only hold up every reset.
        if openings as usize >= max_plies {
            return Err(PyValueError::new_err(format!(
                "`openings` must be 0 to {}, not {openings}",
                max_plies - 1
            )));
        }
        let engine = &variant.engine;
        let start = Game::new(engine.clone());
        if start.is_over() {
            return Err(PyValueError::new_err(format!(
                "{}'s first position is already decided: there is no game to play",
                engine.rules().name
            )));
        }
        let (planes, h, w) = (
            observation::plane_count(engine, true),
            usize::from(engine.height()),
            usize::from(engine.width()),
        );
        let actions = variant.actions.count();
        let slots = (0..n as u64)
            .map(|i| Slot {
                game: start.clone(),
                legal: Vec::new(),
                openings: Rng::for_game(seed, i),
                sampler: Rng::for_game(!seed, i),
            })
            .collect();
        Ok(VectorCore {
            variant,
            slots,
            openings,
            max_plies,
            obs: PyArray4::zeros(py, [n, planes, h, w], false).unbind(),
            mask: PyArray2::zeros(py, [n, actions], false).unbind(),
            rewards: PyArray1::zeros(py, n, false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            to_move: PyArray1::zeros(py, n, false).unbind(),
            winner: PyArray1::from_vec(py, vec![NO_WINNER; n]).unbind(),
            ended: PyArray1::zeros(py, n, false).unbind(),
            final_obs: PyArray4::zeros(py, [n, planes, h, w], false).unbind(),
        })
    }

    /// How many games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// Starts every game afresh. With a `seed`, game `i`'s random streams restart from
    /// (`seed`, `i`); without one they go on.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        if let Some(seed) = seed {
            let seed = args::seed(seed)?;
            for (i, slot) in self.slots.iter_mut().enumerate() {
                slot.openings = Rng::for_game(seed, i as u64);
                slot.sampler = Rng::for_game(!seed, i as u64);
            }
        }
        self.run(py, |setting, _, slot, row| {
            setting.new_game(slot);
            *row.reward = 0.0;
            *row.terminated = false;
            *row.truncated = false;
            *row.winner = NO_WINNER;
            *row.ended = false;
            setting.observe(slot, row);
        })
    }

    /// Plays `actions[i]` in game `i`, for every game. An action that is not legal in its
    /// game raises `IllegalMoveError` naming the game, and no game moves.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let actions = actions.as_array();
        if actions.len() != self.slots.len() {
            return Err(PyValueError::new_err(format!(
                "`actions` must hold one action a game: {} games, not {} actions",
                self.slots.len(),
                actions.len()
            )));
        }
        let mut chosen = Vec::with_capacity(actions.len());
        for (i, (&action, slot)) in actions.iter().zip(&self.slots).enumerate() {
            let legal = u32::try_from(action)
                .ok()
                .filter(|a| slot.legal.contains(a));
            let Some(action) = legal else {
                return Err(self.illegal(i, action));
            };
            chosen.push(action);
        }
        let chosen = &chosen;
        self.run(py, |setting, i, slot, row| {
            setting.step(slot, chosen[i], row)
        })
    }

    /// One random legal action a game (from each game's own stream, seeded by `reset`), as an
    /// int64 array; -1 for a game without a legal action, which only a game before the first
    /// `reset` is (an ended game is started again in its step).
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let drawn: Vec<i64> = self
            .slots
            .iter_mut()
            .map(|slot| match slot.legal.len() {
                0 => -1,
                n => i64::from(slot.legal[slot.sampler.below(n)]),
            })
            .collect();
        PyArray1::from_vec(py, drawn)
    }

    /// The arrays the games are written into, by name: `obs`, `action_mask`, `rewards`,
    /// `terminated`, `truncated`, `to_move`, `winner`, `final_obs`, `_final_obs`. The same
    /// arrays every time: each step writes over them.
    fn arrays<'py>(&self, py: Python<'py>) -> Vec<(&'static str, Bound<'py, PyAny>)> {
        vec![
            ("obs", self.obs.bind(py).clone().into_any()),
            ("action_mask", self.mask.bind(py).clone().into_any()),
            ("rewards", self.rewards.bind(py).clone().into_any()),
            ("terminated", self.terminated.bind(py).clone().into_any()),
            ("truncated", self.truncated.bind(py).clone().into_any()),
            ("to_move", self.to_move.bind(py).clone().into_any()),
            ("winner", self.winner.bind(py).clone().into_any()),
            ("final_obs", self.final_obs.bind(py).clone().into_any()),
            ("_final_obs", self.ended.bind(py).clone().into_any()),
        ]
    }

    /// The moves of game `i` so far, as text (how a test replays it in a single game).
    fn history(&self, i: usize) -> PyResult<Vec<String>> {
        let slot = self.slots.get(i).ok_or_else(|| {
            PyValueError::new_err(format!("there are {} games, no game {i}", self.slots.len()))
        })?;
        Ok(slot.game.plies().iter().map(|p| p.mv.to_string()).collect())
    }
}

impl VectorCore {
    /// The error for `action`, no legal action of game `i`.
    fn illegal(&self, i: usize, action: i64) -> PyErr {
        let actions = &self.variant.actions;
        let slot = &self.slots[i];
        let why = match usize::try_from(action).ok().and_then(|a| actions.decode(a)) {
            _ if slot.legal.is_empty() => "the game has no legal action: call reset()".to_string(),
            Some(mv) => match slot.game.check(mv) {
                Err(e) => e.to_string(),
                Ok(()) => format!("{mv} is not legal here"),
            },
            None if action < 0 => format!("actions are 0 to {}", actions.count() - 1),
            None if action as u64 >= actions.count() as u64 => {
                format!("the last action is {}", actions.count() - 1)
            }
            None => "it leaves the board".to_string(),
        };
        IllegalMoveError::new_err(format!(
            "game {i}: action {action} is not legal ({why}); no game moved"
        ))
    }
}
