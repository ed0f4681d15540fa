//! Orthogonal steps over whole sets of squares at once: the squares beside a set, and the
//! flood fill of where a piece could walk. The edge fort, encirclement and the evaluation's
//! corner walls all ask these, many times a move, so they shift the bit set a file or a rank
//! instead of visiting its squares one by one.

use crate::engine::bitboard::Bits;

/// The four ways a rook moves: along the rank (right, left) and across it (up, down).
#[derive(Clone, Copy)]
enum Direction {
    Right,
    Left,
    Up,
    Down,
}

impl Direction {
    const ALL: [Direction; 4] = [
        Direction::Right,
        Direction::Left,
        Direction::Up,
        Direction::Down,
    ];

    fn opposite(self) -> Direction {
        match self {
            Direction::Right => Direction::Left,
            Direction::Left => Direction::Right,
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
        }
    }
}

/// One orthogonal step for every member of a set, by shifts: a step along the rank is a shift
/// by one, across it a shift by the board's width. The edge files are masked before a shift
/// along the rank, so that no step wraps round to the next rank.
#[derive(Clone, Debug)]
pub(in crate::engine) struct Steps<B> {
    width: usize,
    /// Every square of the board.
    board: B,
    /// Every square but those of the last file, which have no square to their right.
    steps_right: B,
    /// Every square but those of the first file, which have no square to their left.
    steps_left: B,
}

impl<B: Bits> Steps<B> {
    /// The steps of a board `width` files wide whose squares are `board`.
    pub(in crate::engine) fn new(width: usize, board: B) -> Steps<B> {
        let (mut steps_right, mut steps_left) = (B::EMPTY, B::EMPTY);
        for sq in board.iter() {
            if sq % width != width - 1 {
                steps_right.set(sq);
            }
            if sq % width != 0 {
                steps_left.set(sq);
            }
        }
        Steps {
            width,
            board,
            steps_right,
            steps_left,
        }
    }

    /// The squares of the board one orthogonal step from a member of `set` (members of `set`
    /// included where they stand beside one another).
    #[inline]
    pub(in crate::engine) fn beside(&self, set: B) -> B {
        // A shift across the ranks may carry members past the last square: the board's mask
        // drops them.
        (self.step(set, Direction::Right)
            | self.step(set, Direction::Left)
            | self.step(set, Direction::Up)
            | self.step(set, Direction::Down))
            & self.board
    }

    /// The squares from which one step reaches a member of `near` and a second step the same
    /// way a member of `far` or off the board: where a piece may land to have a member of
    /// `near` beside it with `far` (or the edge) beyond.
    pub(in crate::engine) fn flanking(&self, near: B, far: B) -> B {
        let mut out = B::EMPTY;
        for direction in Direction::ALL {
            let back = direction.opposite();
            // The squares whose next square towards `direction` is in `far` or off the board.
            let beyond = self.step(far, back) | (self.board & !self.step(self.board, back));
            out |= self.step(near & beyond, back);
        }
        out & self.board
    }

    /// The squares one rook move from a member of `from`: along a rank or a file through
    /// `empty` squares, stopping before the first square that is not. Every member slides at
    /// once, a step a shift, so a distance in moves costs a few dozen shifts, not a visit of
    /// every square reached.
    pub(in crate::engine) fn rook_reach(&self, from: B, empty: B) -> B {
        self.slide_reach(from, empty, empty)
    }

    /// The squares one rook move from a member of `from` when a slide goes on through
    /// `through` squares and may end on `onto` squares: the first square of each ray that is
    /// not `through` ends it, and is reached if it is `onto` (a square a piece may land on but
    /// not pass). Both sets lie on the board, and `through` within `onto`.
    pub(in crate::engine) fn slide_reach(&self, from: B, through: B, onto: B) -> B {
        let mut reached = B::EMPTY;
        for direction in Direction::ALL {
            // `onto` lies on the board, so masking by it also drops what left the board.
            let mut ray = self.step(from, direction) & onto;
            while ray.any() {
                reached |= ray;
                ray = self.step(ray & through, direction) & onto;
            }
        }
        reached
    }

    /// Every member of `set` one step towards `direction`; members that would leave the board
    /// along a rank are dropped, those that leave it across the ranks may remain beyond the
    /// last square (mask them).
    #[inline]
    fn step(&self, set: B, direction: Direction) -> B {
        match direction {
            Direction::Right => (set & self.steps_right).shift_up(1),
            Direction::Left => (set & self.steps_left).shift_down(1),
            Direction::Up => set.shift_up(self.width),
            Direction::Down => set.shift_down(self.width),
        }
    }

    /// The squares reachable from `seeds` by orthogonal steps through `passable` squares (the
    /// seeds themselves included where passable).
    pub(in crate::engine) fn flood(&self, seeds: B, passable: B) -> B {
        let mut reached = seeds & passable;
        loop {
            let grown = reached | (self.beside(reached) & passable);
            if grown == reached {
                return reached;
            }
            reached = grown;
        }
    }

    /// Whether orthogonal steps through `passable` squares lead from `seeds` to `target` (a
    /// seed on the target counts, passable or not).
    pub(in crate::engine) fn reaches(&self, seeds: B, passable: B, target: B) -> bool {
        let mut reached = seeds;
        loop {
            if (reached & target).any() {
                return true;
            }
            let grown = reached | (self.beside(reached) & passable);
            if grown == reached {
                return false;
            }
            reached = grown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Steps;
    use crate::engine::bitboard::Bits;

    /// A 5x4 board: square `rank * 5 + file`.
    fn steps() -> Steps<u128> {
        Steps::new(5, (0..20).fold(0u128, |set, sq| set | u128::single(sq)))
    }

    fn set(squares: &[usize]) -> u128 {
        squares.iter().fold(0, |set, &sq| set | u128::single(sq))
    }

    #[test]
    fn a_step_does_not_wrap_round_a_rank_or_leave_the_board() {
        let steps = steps();
        // The last square of rank 0 (file 4) has no right-hand neighbour: square 5 is on rank 1.
        assert_eq!(steps.beside(set(&[4])), set(&[3, 9]));
        assert_eq!(steps.beside(set(&[5])), set(&[0, 6, 10]));
        // The top rank steps no further than the board.
        assert_eq!(steps.beside(set(&[17])), set(&[12, 16, 18]));
    }

    #[test]
    fn a_slide_runs_to_the_first_piece_or_the_edge_and_does_not_wrap() {
        let steps = steps();
        // From square 7 (file 2, rank 1) on an empty board: its rank and its file.
        let empty = steps.board & !set(&[7]);
        assert_eq!(
            steps.rook_reach(set(&[7]), empty),
            set(&[5, 6, 8, 9, 2, 12, 17])
        );
        // A piece on 8 stops the slide to the right before it; one on 17 stops the slide up.
        let empty = empty & !set(&[8, 17]);
        assert_eq!(steps.rook_reach(set(&[7]), empty), set(&[5, 6, 2, 12]));
        // From the last file (square 9) a slide right does not come out on the next rank.
        let empty = steps.board & !set(&[9]);
        assert_eq!(
            steps.rook_reach(set(&[9]), empty),
            set(&[5, 6, 7, 8, 4, 14, 19])
        );
    }

    #[test]
    fn a_slide_may_end_on_a_square_it_may_not_pass() {
        let steps = steps();
        // From 7 on an empty board, square 8 may be landed on but not passed: the slide to the
        // right ends there, and 9 is not reached; a piece on 12 is neither reached nor passed.
        let empty = steps.board & !set(&[7, 12]);
        assert_eq!(
            steps.slide_reach(set(&[7]), empty & !set(&[8]), empty),
            set(&[5, 6, 8, 2])
        );
        // From two empty squares at once (where a piece could stand after its first move):
        // each slides through and onto the other, as the piece would from either.
        let empty = steps.board;
        assert_eq!(
            steps.slide_reach(set(&[0, 2]), empty, empty),
            set(&[1, 2, 3, 4, 5, 10, 15]) | set(&[0, 1, 3, 4, 7, 12, 17])
        );
    }

    #[test]
    fn flanking_squares_have_the_near_set_beside_and_the_far_set_or_the_edge_beyond() {
        let steps = steps();
        // On the 5x4 board, a piece on 12 (file 2, rank 2) with 17 above it is flanked from 7,
        // below it; one on 10 (file 0), the edge to its left, from 11. No other square has
        // one of them beside it and a far square or the edge beyond.
        assert_eq!(steps.flanking(set(&[12, 10]), set(&[17])), set(&[7, 11]));
        // The edge above the top rank counts too: 17 itself, with nothing far, from 12.
        assert_eq!(steps.flanking(set(&[17]), 0), set(&[12]));
    }

    #[test]
    fn a_flood_stops_at_a_wall() {
        let steps = steps();
        // A wall down file 2 splits the board; the flood from file 0 keeps to files 0 and 1.
        let wall = set(&[2, 7, 12, 17]);
        let open = steps.board & !wall;
        let left = set(&[0, 1, 5, 6, 10, 11, 15, 16]);
        assert_eq!(steps.flood(set(&[0]), open), left);
        assert!(!steps.reaches(set(&[0]), open, set(&[4])));
        // One gap in the wall lets it through.
        let open = open | set(&[12]);
        assert!(steps.reaches(set(&[0]), open, set(&[4])));
        assert_eq!(steps.flood(set(&[0]), open), open);
    }
}
