//! The fixed action space of a variant: every move as one integer, for reinforcement learning.
//!
//! Where every piece moves along a rank or file (all bundled variants but one), an action is a
//! from-square times a direction times a distance: `((rank * width + file) * 4 + direction) *
//! reach + distance - 1`, with directions north (up the ranks), east, south, west, and `reach`
//! the longest line on the board (`max(width, height) - 1`). On 11x11 that is 121 x 4 x 10 =
//! 4,840 actions rather than 121 x 121 = 14,641 from-to pairs. Jumps are straight moves too.
//!
//! A piece that moves "to any empty square" (Thrones and Bones' Black Draug) makes moves no line
//! describes; such a variant gets the from-square x to-square encoding instead
//! (`from * squares + to`, squares counted as above). [`Actions::kind`] says which.

use tafl::ir::MoveStyle;
use tafl::{Move, Rules, Square};

/// How a variant's moves are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// From-square x direction x distance.
    Line,
    /// From-square x to-square.
    FromTo,
}

/// The action numbering of one board.
#[derive(Clone, Copy, Debug)]
pub struct Actions {
    width: u8,
    height: u8,
    kind: Kind,
}

/// North, east, south, west as (file, rank) steps, in action order.
const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl Actions {
    /// The numbering for `rules`: by line unless some piece moves to any empty square.
    pub fn for_rules(rules: &Rules) -> Actions {
        let free = rules
            .pieces
            .iter()
            .any(|p| matches!(p.movement.style, MoveStyle::AnyEmptySquare));
        let kind = if free { Kind::FromTo } else { Kind::Line };
        Actions {
            width: rules.board.width,
            height: rules.board.height,
            kind,
        }
    }

    /// Which numbering this is.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    fn squares(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// The longest straight move: `max(width, height) - 1`.
    pub fn reach(&self) -> usize {
        usize::from(self.width.max(self.height)) - 1
    }

    /// How many actions there are (most are illegal in any one position).
    pub fn count(&self) -> usize {
        match self.kind {
            Kind::Line => self.squares() * 4 * self.reach(),
            Kind::FromTo => self.squares() * self.squares(),
        }
    }

    fn index(&self, square: Square) -> usize {
        usize::from(square.rank) * usize::from(self.width) + usize::from(square.file)
    }

    fn square(&self, index: usize) -> Square {
        let width = usize::from(self.width);
        // index < squares <= 19 * 19, so both parts fit in a u8.
        Square::new((index % width) as u8, (index / width) as u8)
    }

    /// The action of `mv`, or `None` for a move this numbering cannot say (not on the board, or
    /// not along a line in a line numbering: no legal move of the variant).
    pub fn encode(&self, mv: Move) -> Option<usize> {
        if !mv.from.is_on(self.width, self.height) || !mv.to.is_on(self.width, self.height) {
            return None;
        }
        let from = self.index(mv.from);
        match self.kind {
            Kind::FromTo => Some(from * self.squares() + self.index(mv.to)),
            Kind::Line => {
                let df = i16::from(mv.to.file) - i16::from(mv.from.file);
                let dr = i16::from(mv.to.rank) - i16::from(mv.from.rank);
                let (direction, distance) = match (df.signum(), dr.signum()) {
                    (0, 1) => (0, dr),
                    (1, 0) => (1, df),
                    (0, -1) => (2, -dr),
                    (-1, 0) => (3, -df),
                    _ => return None,
                };
                let distance = usize::try_from(distance).ok()?;
                Some((from * 4 + direction) * self.reach() + distance - 1)
            }
        }
    }

    /// The move of `action`, or `None` for a number outside the space or a move off the board.
    pub fn decode(&self, action: usize) -> Option<Move> {
        if action >= self.count() {
            return None;
        }
        match self.kind {
            Kind::FromTo => Some(Move::new(
                self.square(action / self.squares()),
                self.square(action % self.squares()),
            )),
            Kind::Line => {
                let reach = self.reach();
                let distance = (action % reach + 1) as i16;
                let direction = (action / reach) % 4;
                let from = self.square(action / reach / 4);
                let (df, dr) = DIRECTIONS[direction];
                let file = i16::from(from.file) + i16::from(df) * distance;
                let rank = i16::from(from.rank) + i16::from(dr) * distance;
                let on = (0..i16::from(self.width)).contains(&file)
                    && (0..i16::from(self.height)).contains(&rank);
                // Checked to lie on the board, so both fit in a u8.
                on.then(|| Move::new(from, Square::new(file as u8, rank as u8)))
            }
        }
    }

    /// Writes `on` into `out` (one entry an action, zeroed first to `T::default()`) at the
    /// action of each of `moves`. Every legal move has an action: the numbering is chosen from
    /// the rules so that it can say each kind of move the variant allows, so a move it cannot
    /// say (none that move generation gives) is left out.
    pub fn write_mask<T: Copy + Default>(&self, moves: &[Move], on: T, out: &mut [T]) {
        out.fill(T::default());
        for &mv in moves {
            if let Some(action) = self.encode(mv) {
                out[action] = on;
            }
        }
    }
}
