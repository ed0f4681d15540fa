//! An independent, deliberately plain implementation of the IR's semantics: an array board, no
//! bit sets, no precomputed tables, rules looked up by name every time. It is slow and meant to
//! be obviously right; the engine must agree with it.

#![allow(dead_code)]
// Plain signatures are the point of this module: keep them spelled out.
#![allow(clippy::type_complexity, clippy::too_many_arguments)]

pub mod agree;

use tafl::ir::*;

/// A position of the reference implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    /// `board[rank][file]`: the kind index of the piece there.
    pub board: Vec<Vec<Option<usize>>>,
    /// `stayed[rank][file][i]`: for access rule `i` with condition once_left, whether the piece
    /// there has stood in the region since the start and never stopped outside it.
    pub stayed: Vec<Vec<Vec<bool>>>,
    pub to_move: Side,
    /// Per side: last move (from, to) and how many moves in a row shuttled between them.
    pub last: [Option<((i32, i32), (i32, i32), u32)>; 2],
    pub quiet: u32,
    /// The square of the piece that must make a berserk move, if one is due.
    pub berserker: Option<(i32, i32)>,
}

pub struct Reference {
    pub rules: Rules,
    w: i32,
    h: i32,
}

/// How a move ended the game: winner (None = draw) and reason word.
pub type End = (Option<Side>, &'static str);

const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl Reference {
    pub fn new(rules: &Rules) -> Reference {
        Reference {
            rules: rules.clone(),
            w: rules.board.width as i32,
            h: rules.board.height as i32,
        }
    }

    fn kind(&self, name: &str) -> usize {
        self.rules
            .pieces
            .iter()
            .position(|p| p.name == name)
            .unwrap()
    }

    fn in_region(&self, region: &str, f: i32, r: i32) -> bool {
        self.rules
            .region(region)
            .unwrap()
            .squares
            .iter()
            .any(|s| s.file as i32 == f && s.rank as i32 == r)
    }

    fn on(&self, f: i32, r: i32) -> bool {
        f >= 0 && r >= 0 && f < self.w && r < self.h
    }

    pub fn start(&self) -> RefPos {
        let mut board = vec![vec![None; self.w as usize]; self.h as usize];
        for (row, text) in self.rules.setup.iter().enumerate() {
            let r = self.h as usize - 1 - row;
            for (f, c) in text.chars().enumerate() {
                board[r][f] = self.rules.pieces.iter().position(|p| p.symbol == c);
            }
        }
        self.with_board(board, self.rules.first_to_move)
    }

    pub fn with_board(&self, board: Vec<Vec<Option<usize>>>, to_move: Side) -> RefPos {
        let n = self.rules.access.len();
        let mut stayed = vec![vec![vec![false; n]; self.w as usize]; self.h as usize];
        for r in 0..self.h {
            for f in 0..self.w {
                for (i, rule) in self.rules.access.iter().enumerate() {
                    stayed[r as usize][f as usize][i] = board[r as usize][f as usize].is_some()
                        && self.in_region(&rule.region, f, r);
                }
            }
        }
        RefPos {
            board,
            stayed,
            to_move,
            last: [None, None],
            quiet: 0,
            berserker: None,
        }
    }

    fn at(&self, pos: &RefPos, f: i32, r: i32) -> Option<usize> {
        if self.on(f, r) {
            pos.board[r as usize][f as usize]
        } else {
            None
        }
    }

    fn side_of(&self, kind: usize) -> Side {
        self.rules.pieces[kind].side
    }

    /// The king-capture rule of the square (x, y).
    fn king_rule_at(&self, x: i32, y: i32) -> &KingCaptureRule {
        self.rules
            .king_capture
            .iter()
            .find(|rule| {
                rule.squares
                    .iter()
                    .any(|s| s.file as i32 == x && s.rank as i32 == y)
            })
            .unwrap()
    }

    /// Whether the king on (x, y) is enclosed together with the empty square of `region` beside
    /// him: each of his four sides counts against him (`captor`), or is an empty square of the
    /// region whose three other sides count.
    fn enclosed_together(
        &self,
        pos: &RefPos,
        x: i32,
        y: i32,
        region: &str,
        captor: &dyn Fn(i32, i32) -> bool,
    ) -> bool {
        DIRS.iter().all(|(dx, dy)| {
            let (sx, sy) = (x + dx, y + dy);
            captor(sx, sy)
                || (self.on(sx, sy)
                    && self.in_region(region, sx, sy)
                    && self.at(pos, sx, sy).is_none()
                    && DIRS
                        .iter()
                        .all(|(ex, ey)| (sx + ex, sy + ey) == (x, y) || captor(sx + ex, sy + ey)))
        })
    }

    /// The region a rule encloses the king together with, if it is such a rule.
    fn together_region(rule: &KingCaptureRule) -> Option<&str> {
        match (&rule.method, &rule.place) {
            (KingCaptureMethod::EnclosedTogether, Place::Beside(region)) => Some(region),
            _ => None,
        }
    }

    /// Whether access rule `i` bars the piece that started this move on (ff, fr) from the
    /// square (f, r), for landing (`landing`) or passing.
    fn barred(
        &self,
        pos: &RefPos,
        kind: usize,
        ff: i32,
        fr: i32,
        f: i32,
        r: i32,
        landing: bool,
    ) -> bool {
        let name = &self.rules.pieces[kind].name;
        self.rules.access.iter().enumerate().any(|(i, rule)| {
            if !rule.pieces.contains(name) || !self.in_region(&rule.region, f, r) {
                return false;
            }
            let applies = if landing {
                rule.action.includes_landing()
            } else {
                rule.action.includes_passing()
            };
            if !applies {
                return false;
            }
            match rule.condition {
                AccessCondition::Always => true,
                AccessCondition::OnceLeft => !pos.stayed[fr as usize][ff as usize][i],
                AccessCondition::WhileGroupEmpty => {
                    // Flood fill the region's group holding (f, r) and look for a piece.
                    let mut seen = vec![(f, r)];
                    let mut i = 0;
                    while i < seen.len() {
                        let (x, y) = seen[i];
                        if self.at(pos, x, y).is_some() {
                            return false;
                        }
                        for (dx, dy) in DIRS {
                            let (nx, ny) = (x + dx, y + dy);
                            if self.on(nx, ny)
                                && self.in_region(&rule.region, nx, ny)
                                && !seen.contains(&(nx, ny))
                            {
                                seen.push((nx, ny));
                            }
                        }
                        i += 1;
                    }
                    true
                }
            }
        })
    }

    /// Legal moves as ((from file, rank), (to file, rank)).
    pub fn moves(&self, pos: &RefPos) -> Vec<((i32, i32), (i32, i32))> {
        let mut out = Vec::new();
        for r in 0..self.h {
            for f in 0..self.w {
                if pos.berserker.is_some_and(|b| b != (f, r)) {
                    continue;
                }
                for to in self.targets(pos, f, r) {
                    let allowed = pos.berserker.is_none()
                        || self.rules.berserk != Some(Berserk::CaptureAgain)
                        || !self.play(&mut pos.clone(), (f, r), to).0.is_empty();
                    if allowed {
                        out.push(((f, r), to));
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// The jump rule of `kind`, if it has one.
    fn jump_of(&self, kind: usize) -> Option<&JumpRule> {
        let name = &self.rules.pieces[kind].name;
        self.rules.jumps.iter().find(|j| j.pieces.contains(name))
    }

    /// The squares the piece on (f, r) of the side to move may go to, the berserk rule aside.
    fn targets(&self, pos: &RefPos, f: i32, r: i32) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        {
            {
                let Some(kind) = self.at(pos, f, r) else {
                    return out;
                };
                if self.side_of(kind) != pos.to_move {
                    return out;
                }
                let movement = self.rules.pieces[kind].movement;
                let mut targets = Vec::new();
                match movement.style {
                    MoveStyle::AnyEmptySquare => {
                        for y in 0..self.h {
                            for x in 0..self.w {
                                if self.at(pos, x, y).is_none()
                                    && !self.barred(pos, kind, f, r, x, y, true)
                                {
                                    targets.push((x, y));
                                }
                            }
                        }
                    }
                    MoveStyle::Rook => {
                        for (dx, dy) in DIRS {
                            let mut dist = 1;
                            let (mut x, mut y) = (f + dx, r + dy);
                            while self.on(x, y) && self.at(pos, x, y).is_none() {
                                if movement.max_distance.is_some_and(|m| dist > m as i32) {
                                    break;
                                }
                                if !self.barred(pos, kind, f, r, x, y, true) {
                                    targets.push((x, y));
                                }
                                if self.barred(pos, kind, f, r, x, y, false) {
                                    break;
                                }
                                x += dx;
                                y += dy;
                                dist += 1;
                            }
                        }
                    }
                }
                if let Some(jump) = self.jump_of(kind) {
                    for (dx, dy) in DIRS {
                        let over = self.at(pos, f + dx, r + dy);
                        let (x, y) = (f + 2 * dx, r + 2 * dy);
                        let jumpable = over.is_some_and(|o| {
                            self.side_of(o) != self.side_of(kind)
                                && jump.over.contains(&self.rules.pieces[o].name)
                        });
                        let via_ok = jump.only_from_or_to.is_empty()
                            || jump
                                .only_from_or_to
                                .iter()
                                .any(|g| self.in_region(g, f, r) || self.in_region(g, x, y));
                        if jumpable
                            && via_ok
                            && self.on(x, y)
                            && self.at(pos, x, y).is_none()
                            && !self.barred(pos, kind, f, r, x, y, true)
                        {
                            targets.push((x, y));
                        }
                    }
                }
                for to in targets {
                    if let (Some(limit), Some((lf, lt, count))) = (
                        self.rules.outcome.back_and_forth_limit,
                        pos.last[pos.to_move.index()],
                    ) {
                        if lt == (f, r) && lf == to && count >= limit {
                            continue;
                        }
                    }
                    out.push(to);
                }
            }
        }
        out
    }

    fn hostile(&self, pos: &RefPos, x: i32, y: i32, victim: usize) -> bool {
        let victim_name = &self.rules.pieces[victim].name;
        let victim_side = self.side_of(victim);
        self.rules.hostility.iter().any(|rule| {
            if !rule.victims.contains(victim_name) || !self.in_region(&rule.region, x, y) {
                return false;
            }
            match &rule.when {
                Hostile::Always => true,
                Hostile::WhenEmpty => self.at(pos, x, y).is_none(),
                Hostile::WhenOccupied { by, enemies_beside } => {
                    let occupant = self.at(pos, x, y);
                    let by_ok = occupant.is_some_and(|k| by.contains(&self.rules.pieces[k].name));
                    let enemies = DIRS
                        .iter()
                        .filter(|(dx, dy)| {
                            self.at(pos, x + dx, y + dy)
                                .is_some_and(|k| self.side_of(k) != victim_side)
                        })
                        .count();
                    by_ok && enemies >= *enemies_beside as usize
                }
            }
        })
    }

    /// Plays a move; returns the captured squares and the ending caused by capture, escape or
    /// the no-capture limit.
    pub fn play(
        &self,
        pos: &mut RefPos,
        from: (i32, i32),
        to: (i32, i32),
    ) -> (Vec<(i32, i32)>, Option<End>) {
        let kind = self.at(pos, from.0, from.1).unwrap();
        let side = pos.to_move;
        pos.berserker = None;
        // A capturing jump: two squares in a line over an enemy its rule may jump.
        let (jx, jy) = ((from.0 + to.0) / 2, (from.1 + to.1) / 2);
        let jumped_enemy = ((to.0 - from.0).abs() + (to.1 - from.1).abs() == 2)
            && (from.0 == to.0 || from.1 == to.1)
            && self.at(pos, jx, jy).is_some_and(|o| {
                self.side_of(o) != side
                    && self
                        .jump_of(kind)
                        .is_some_and(|j| j.captures && j.over.contains(&self.rules.pieces[o].name))
            });
        pos.board[from.1 as usize][from.0 as usize] = None;
        pos.board[to.1 as usize][to.0 as usize] = Some(kind);
        let mut flags = std::mem::take(&mut pos.stayed[from.1 as usize][from.0 as usize]);
        for (i, rule) in self.rules.access.iter().enumerate() {
            flags[i] = flags[i] && self.in_region(&rule.region, to.0, to.1);
        }
        pos.stayed[to.1 as usize][to.0 as usize] = flags;
        pos.stayed[from.1 as usize][from.0 as usize] = vec![false; self.rules.access.len()];
        let count = match pos.last[side.index()] {
            Some((lf, lt, count)) if lt == from && lf == to => count + 1,
            _ => 1,
        };
        pos.last[side.index()] = Some((from, to, count));

        let mover = &self.rules.pieces[kind];
        let mut captured = Vec::new();
        for (dx, dy) in DIRS {
            let (vx, vy) = (to.0 + dx, to.1 + dy);
            let Some(victim) = self.at(pos, vx, vy) else {
                continue;
            };
            if self.side_of(victim) == side || !mover.armed.as_hammer() {
                continue;
            }
            let captor = |x: i32, y: i32, counting: &[String], edge: bool| -> bool {
                if !self.on(x, y) {
                    return edge;
                }
                if (x, y) == to {
                    return true;
                }
                if let Some(k) = self.at(pos, x, y) {
                    if self.side_of(k) == side && self.rules.pieces[k].armed.as_anvil() {
                        return true;
                    }
                }
                counting.iter().any(|c| self.in_region(c, x, y)) || self.hostile(pos, x, y, victim)
            };
            let taken = if self.rules.pieces[victim].role == Role::King {
                let rule = self.king_rule_at(vx, vy);
                let by_rule = match rule.method {
                    KingCaptureMethod::Custodial => {
                        captor(vx + dx, vy + dy, &rule.counting, rule.edge_counts)
                    }
                    KingCaptureMethod::Enclosed => DIRS
                        .iter()
                        .all(|(ex, ey)| captor(vx + ex, vy + ey, &rule.counting, rule.edge_counts)),
                    KingCaptureMethod::EnclosedTogether => {
                        let region = Self::together_region(rule).unwrap();
                        self.enclosed_together(pos, vx, vy, region, &|cx, cy| {
                            captor(cx, cy, &rule.counting, rule.edge_counts)
                        })
                    }
                };
                let king_name = &self.rules.pieces[victim].name;
                let (fx, fy) = (vx + dx, vy + dy);
                let sandwiched = self.rules.king_sandwiches.iter().any(|rule| {
                    rule.kings.contains(king_name)
                        && rule.captors.contains(&mover.name)
                        && !rule.except_on.iter().any(|g| self.in_region(g, vx, vy))
                        && self.on(fx, fy)
                        && (rule.counting.iter().any(|g| self.in_region(g, fx, fy))
                            || self.at(pos, fx, fy).is_some_and(|k| {
                                self.side_of(k) == side
                                    && self.rules.pieces[k].armed.as_anvil()
                                    && rule.captors.contains(&self.rules.pieces[k].name)
                            }))
                });
                by_rule || sandwiched
            } else {
                self.on(vx + dx, vy + dy) && captor(vx + dx, vy + dy, &[], false)
            };
            if taken {
                captured.push((vx, vy));
            }
        }
        // Kings taken together with the empty square beside them, the mover landing beside that
        // square (not beside the king, judged above): every enemy king on the board is asked.
        for y in 0..self.h {
            for x in 0..self.w {
                let Some(victim) = self.at(pos, x, y) else {
                    continue;
                };
                if self.side_of(victim) == side
                    || self.rules.pieces[victim].role != Role::King
                    || !mover.armed.as_hammer()
                    || captured.contains(&(x, y))
                {
                    continue;
                }
                let rule = self.king_rule_at(x, y);
                let Some(region) = Self::together_region(rule) else {
                    continue;
                };
                // The mover closes the far side of an empty square of the region beside him.
                let mover_beyond = DIRS.iter().any(|(dx, dy)| {
                    let (sx, sy) = (x + dx, y + dy);
                    self.on(sx, sy)
                        && self.in_region(region, sx, sy)
                        && self.at(pos, sx, sy).is_none()
                        && (to.0 - sx).abs() + (to.1 - sy).abs() == 1
                });
                if !mover_beyond {
                    continue;
                }
                let captor = |cx: i32, cy: i32| -> bool {
                    if !self.on(cx, cy) {
                        return rule.edge_counts;
                    }
                    if (cx, cy) == to {
                        return true;
                    }
                    if let Some(k) = self.at(pos, cx, cy) {
                        if self.side_of(k) == side && self.rules.pieces[k].armed.as_anvil() {
                            return true;
                        }
                    }
                    rule.counting.iter().any(|c| self.in_region(c, cx, cy))
                        || self.hostile(pos, cx, cy, victim)
                };
                if self.enclosed_together(pos, x, y, region, &captor) {
                    captured.push((x, y));
                }
            }
        }
        if let Some(wall) = &self.rules.shieldwall {
            for square in self.shieldwall(pos, wall, kind, to) {
                if !captured.contains(&square) {
                    captured.push(square);
                }
            }
        }
        if jumped_enemy && !captured.contains(&(jx, jy)) {
            captured.push((jx, jy));
        }
        let took = !captured.is_empty();
        // Kings of the mover's side under a rule checked after their own side's moves, judged
        // before this move's captures are removed.
        let mut own_taken = Vec::new();
        for y in 0..self.h {
            for x in 0..self.w {
                let Some(k) = self.at(pos, x, y) else {
                    continue;
                };
                if self.side_of(k) != side || self.rules.pieces[k].role != Role::King {
                    continue;
                }
                let rule = self.king_rule_at(x, y);
                if !rule.after_own_move {
                    continue;
                }
                let counts = |cx: i32, cy: i32| -> bool {
                    if !self.on(cx, cy) {
                        return rule.edge_counts;
                    }
                    let enemy_anvil = self.at(pos, cx, cy).is_some_and(|e| {
                        self.side_of(e) != side && self.rules.pieces[e].armed.as_anvil()
                    });
                    enemy_anvil
                        || rule.counting.iter().any(|c| self.in_region(c, cx, cy))
                        || self.hostile(pos, cx, cy, k)
                };
                let enclosed = match rule.method {
                    KingCaptureMethod::Enclosed => {
                        DIRS.iter().all(|(dx, dy)| counts(x + dx, y + dy))
                    }
                    KingCaptureMethod::EnclosedTogether => {
                        let region = Self::together_region(rule).unwrap();
                        self.enclosed_together(pos, x, y, region, &counts)
                    }
                    KingCaptureMethod::Custodial => {
                        (counts(x, y + 1) && counts(x, y - 1))
                            || (counts(x + 1, y) && counts(x - 1, y))
                    }
                };
                if enclosed {
                    own_taken.push((x, y));
                }
            }
        }
        let mut end = None;
        for &(x, y) in &captured {
            let victim = pos.board[y as usize][x as usize].take().unwrap();
            pos.stayed[y as usize][x as usize] = vec![false; self.rules.access.len()];
            let name = &self.rules.pieces[victim].name;
            if let Some(d) = self
                .rules
                .outcome
                .decisive_captures
                .iter()
                .find(|d| &d.piece == name)
            {
                let word = if self.rules.pieces[victim].role == Role::King {
                    "king_captured"
                } else {
                    "leader_captured"
                };
                end = Some((Some(d.winner), word));
            }
        }
        for &(x, y) in &own_taken {
            let king = pos.board[y as usize][x as usize].take().unwrap();
            pos.stayed[y as usize][x as usize] = vec![false; self.rules.access.len()];
            let name = &self.rules.pieces[king].name;
            if let (None, Some(d)) = (
                end,
                self.rules
                    .outcome
                    .decisive_captures
                    .iter()
                    .find(|d| &d.piece == name),
            ) {
                end = Some((Some(d.winner), "king_captured"));
            }
        }
        pos.quiet = if captured.is_empty() {
            pos.quiet + 1
        } else {
            0
        };
        captured.extend(own_taken);
        pos.to_move = side.opponent();
        if end.is_none() {
            if let Some(e) = self
                .rules
                .outcome
                .escapes
                .iter()
                .find(|e| e.piece == mover.name && self.in_region(&e.region, to.0, to.1))
            {
                let word = if mover.role == Role::King {
                    "king_escaped"
                } else {
                    "piece_escaped"
                };
                end = Some((Some(e.winner), word));
            }
        }
        if end.is_none() {
            end = self.board_end(pos);
        }
        if end.is_none() {
            if let Some(limit) = self.rules.outcome.no_capture_draw {
                if limit.claim == Claim::Automatic && pos.quiet >= 2 * limit.moves {
                    end = Some((None, "move_limit"));
                }
            }
        }
        if end.is_none() && took && self.at(pos, to.0, to.1) == Some(kind) {
            if let Some(rule) = self.rules.berserk {
                // The same side moves the capturing piece again if the rule grants it now.
                let mut again = pos.clone();
                again.to_move = side;
                let targets = self.targets(&again, to.0, to.1);
                let granted = match rule {
                    Berserk::CaptureAgain | Berserk::MoveWhileItCanCapture => targets
                        .iter()
                        .any(|&t| !self.play(&mut again.clone(), to, t).0.is_empty()),
                    Berserk::MoveAgain => !targets.is_empty(),
                };
                if granted {
                    pos.to_move = side;
                    pos.berserker = Some(to);
                }
            }
        }
        captured.sort();
        (captured, end)
    }

    /// The edge lines of the board: each a list of squares from one corner to the next, with the
    /// direction pointing into the board from that line.
    fn edge_lines(&self) -> Vec<(Vec<(i32, i32)>, (i32, i32))> {
        let (w, h) = (self.w, self.h);
        vec![
            ((0..w).map(|f| (f, 0)).collect(), (0, 1)),
            ((0..w).map(|f| (f, h - 1)).collect(), (0, -1)),
            ((0..h).map(|r| (0, r)).collect(), (1, 0)),
            ((0..h).map(|r| (w - 1, r)).collect(), (-1, 0)),
        ]
    }

    /// The pieces a shieldwall takes after the piece of kind `mover` moved to `to` (victims still
    /// on the board): every maximal run of two or more enemies along an edge line, each with a
    /// captor in front, with a bracket at both ends; for the flanking trigger, `to` is one end.
    fn shieldwall(
        &self,
        pos: &RefPos,
        wall: &Shieldwall,
        mover: usize,
        to: (i32, i32),
    ) -> Vec<(i32, i32)> {
        let side = self.side_of(mover);
        let hammer = self.rules.pieces[mover].armed.as_hammer();
        let captor = |x: i32, y: i32| -> bool {
            if (x, y) == to {
                return hammer;
            }
            self.at(pos, x, y)
                .is_some_and(|k| self.side_of(k) == side && self.rules.pieces[k].armed.as_anvil())
        };
        let bracket =
            |x: i32, y: i32| captor(x, y) || wall.counting.iter().any(|c| self.in_region(c, x, y));
        let enemy = |x: i32, y: i32| self.at(pos, x, y).is_some_and(|k| self.side_of(k) != side);
        let mut taken = Vec::new();
        for (line, (fx, fy)) in self.edge_lines() {
            let mut i = 0;
            while i < line.len() {
                if !enemy(line[i].0, line[i].1) {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < line.len() && enemy(line[i].0, line[i].1) {
                    i += 1;
                }
                let run = &line[start..i];
                if run.len() < 2 || start == 0 || i == line.len() {
                    continue;
                }
                let (before, after) = (line[start - 1], line[i]);
                if !bracket(before.0, before.1) || !bracket(after.0, after.1) {
                    continue;
                }
                if wall.trigger == ShieldwallTrigger::Flanking && before != to && after != to {
                    continue;
                }
                if !run.iter().all(|&(x, y)| captor(x + fx, y + fy)) {
                    continue;
                }
                for &(x, y) in run {
                    let k = self.at(pos, x, y).unwrap();
                    if wall.victims.contains(&self.rules.pieces[k].name) && !taken.contains(&(x, y))
                    {
                        taken.push((x, y));
                    }
                }
            }
        }
        taken
    }

    /// Squares reachable from `seeds` by orthogonal steps over squares where `open` holds.
    fn reach(&self, seeds: Vec<(i32, i32)>, open: impl Fn(i32, i32) -> bool) -> Vec<(i32, i32)> {
        let mut seen: Vec<(i32, i32)> = seeds.into_iter().filter(|&(x, y)| open(x, y)).collect();
        let mut i = 0;
        while i < seen.len() {
            let (x, y) = seen[i];
            for (dx, dy) in DIRS {
                let (nx, ny) = (x + dx, y + dy);
                if self.on(nx, ny) && open(nx, ny) && !seen.contains(&(nx, ny)) {
                    seen.push((nx, ny));
                }
            }
            i += 1;
        }
        seen
    }

    /// The ending an edge fort or an encirclement causes in `pos`.
    fn board_end(&self, pos: &RefPos) -> Option<End> {
        for fort in &self.rules.outcome.edge_forts {
            let kind = self.kind(&fort.piece);
            for y in 0..self.h {
                for x in 0..self.w {
                    if self.at(pos, x, y) == Some(kind) && self.fort_holds(pos, kind, x, y) {
                        return Some((Some(fort.winner), "edge_fort"));
                    }
                }
            }
        }
        for rule in &self.rules.outcome.encirclements {
            let loser = rule.winner.opponent();
            let mut theirs = Vec::new();
            for y in 0..self.h {
                for x in 0..self.w {
                    if self.at(pos, x, y).is_some_and(|k| self.side_of(k) == loser) {
                        theirs.push((x, y));
                    }
                }
            }
            if theirs.is_empty() {
                continue;
            }
            let enclosed = match rule.reading {
                EncirclementReading::NoEdgeAccess => {
                    let edge: Vec<(i32, i32)> = self
                        .edge_lines()
                        .into_iter()
                        .flat_map(|(line, _)| line)
                        .collect();
                    let open = |x: i32, y: i32| {
                        self.at(pos, x, y).is_none_or(|k| self.side_of(k) == loser)
                    };
                    let reached = self.reach(edge.clone(), open);
                    theirs.iter().all(|square| !reached.contains(square))
                        && !self.jumps_out(pos, loser, &edge, open)
                }
                EncirclementReading::EverySurrounded => theirs.iter().all(|&(x, y)| {
                    DIRS.iter().all(|(dx, dy)| {
                        !self.on(x + dx, y + dy) || self.at(pos, x + dx, y + dy).is_some()
                    })
                }),
            };
            if enclosed {
                return Some((Some(rule.winner), "encircled"));
            }
        }
        None
    }

    /// Whether a jumping piece of `loser` can get out to the edge: from any square it can walk
    /// to, a jump over an enemy it may jump lands on an open square from which the walk goes on.
    fn jumps_out(
        &self,
        pos: &RefPos,
        loser: Side,
        edge: &[(i32, i32)],
        open: impl Fn(i32, i32) -> bool + Copy,
    ) -> bool {
        for kind in 0..self.rules.pieces.len() {
            let Some(jump) = self.jump_of(kind) else {
                continue;
            };
            if self.side_of(kind) != loser {
                continue;
            }
            let mut starts = Vec::new();
            for y in 0..self.h {
                for x in 0..self.w {
                    if self.at(pos, x, y) == Some(kind) {
                        starts.push((x, y));
                    }
                }
            }
            let mut region = self.reach(starts, open);
            loop {
                if region.iter().any(|square| edge.contains(square)) {
                    return true;
                }
                let mut more = Vec::new();
                for &(x, y) in &region {
                    for (dx, dy) in DIRS {
                        let over = self.at(pos, x + dx, y + dy);
                        let (tx, ty) = (x + 2 * dx, y + 2 * dy);
                        let jumpable = over.is_some_and(|o| {
                            self.side_of(o) != loser
                                && jump.over.contains(&self.rules.pieces[o].name)
                        });
                        let via = jump.only_from_or_to.is_empty()
                            || jump
                                .only_from_or_to
                                .iter()
                                .any(|g| self.in_region(g, x, y) || self.in_region(g, tx, ty));
                        let lands = self.on(tx, ty)
                            && open(tx, ty)
                            && !self.rules.access.iter().any(|rule| {
                                rule.condition == AccessCondition::Always
                                    && rule.pieces.contains(&self.rules.pieces[kind].name)
                                    && rule.action.includes_landing()
                                    && self.in_region(&rule.region, tx, ty)
                            });
                        if jumpable && via && lands && !region.contains(&(tx, ty)) {
                            more.push((tx, ty));
                        }
                    }
                }
                if more.is_empty() {
                    break;
                }
                more.extend(region.iter().copied());
                region = self.reach(more, open);
            }
        }
        false
    }

    /// Whether the piece of kind `kind` on (x, y) holds an edge fort (docs/language.md, "Winning
    /// by an edge fort"): every man of the wall stays safe when the men that enemy moves could
    /// capture are taken away one round after another.
    fn fort_holds(&self, pos: &RefPos, kind: usize, x: i32, y: i32) -> bool {
        let on_edge = x == 0 || y == 0 || x == self.w - 1 || y == self.h - 1;
        let empty = |x: i32, y: i32| self.on(x, y) && self.at(pos, x, y).is_none();
        if !on_edge || !DIRS.iter().any(|(dx, dy)| empty(x + dx, y + dy)) {
            return false;
        }
        let side = self.side_of(kind);
        let seeds = DIRS.iter().map(|(dx, dy)| (x + dx, y + dy)).collect();
        let mut inside = self.reach(seeds, empty);
        inside.push((x, y));
        let mut wall: Vec<(i32, i32)> = Vec::new();
        for &(ix, iy) in &inside {
            for (dx, dy) in DIRS {
                let (nx, ny) = (ix + dx, iy + dy);
                if !self.on(nx, ny) || inside.contains(&(nx, ny)) || wall.contains(&(nx, ny)) {
                    continue;
                }
                match self.at(pos, nx, ny) {
                    Some(k) if self.side_of(k) == side => wall.push((nx, ny)),
                    _ => return false,
                }
            }
        }
        // An enemy that flies or jumps one of the men gets over any wall.
        let enemy_kinds: Vec<usize> = (0..self.rules.pieces.len())
            .filter(|&k| self.side_of(k) != side)
            .collect();
        let over_walls = enemy_kinds.iter().any(|&e| {
            self.rules.pieces[e].movement.style == MoveStyle::AnyEmptySquare
                || self.jump_of(e).is_some_and(|jump| {
                    jump.over
                        .iter()
                        .any(|name| self.side_of(self.kind(name)) == side)
                })
        });
        if over_walls {
            return false;
        }
        let mut safe: Vec<(i32, i32)> = Vec::new();
        for r in 0..self.h {
            for f in 0..self.w {
                if (f, r) != (x, y) && self.at(pos, f, r).is_some_and(|k| self.side_of(k) == side) {
                    safe.push((f, r));
                }
            }
        }
        loop {
            // The position with the capturable men gone, for squares hostile when empty.
            let mut bare = pos.clone();
            for r in 0..self.h {
                for f in 0..self.w {
                    let own = self.at(pos, f, r).is_some_and(|k| self.side_of(k) == side);
                    if own && (f, r) != (x, y) && !safe.contains(&(f, r)) {
                        bare.board[r as usize][f as usize] = None;
                    }
                }
            }
            let (hammers, anvils) = self.enemy_stands(pos, &enemy_kinds, &inside, &safe);
            let taken: Vec<(i32, i32)> = safe
                .iter()
                .copied()
                .filter(|&(mx, my)| {
                    let victim = self.at(pos, mx, my).unwrap();
                    let captor = |cx: i32, cy: i32, arriving: bool| {
                        if !self.on(cx, cy) || safe.contains(&(cx, cy)) {
                            return false;
                        }
                        let stands = if arriving { &hammers } else { &anvils };
                        self.hostile(&bare, cx, cy, victim)
                            || (!inside.contains(&(cx, cy)) && stands.contains(&(cx, cy)))
                    };
                    let custodial = [(1, 0), (0, 1)].iter().any(|&(dx, dy)| {
                        let (a, b) = ((mx + dx, my + dy), (mx - dx, my - dy));
                        (captor(a.0, a.1, true) && captor(b.0, b.1, false))
                            || (captor(b.0, b.1, true) && captor(a.0, a.1, false))
                    });
                    custodial
                        || self.fort_shieldwall(
                            pos,
                            (mx, my),
                            victim,
                            &inside,
                            &safe,
                            &hammers,
                            &anvils,
                        )
                })
                .collect();
            if taken.iter().any(|t| wall.contains(t)) {
                return false;
            }
            if taken.is_empty() {
                return true;
            }
            safe.retain(|s| !taken.contains(s));
        }
    }

    /// The squares where capturing enemies (hammers) and enemies that others capture against
    /// (anvils) could come to stand, walking around the fort's inside and the safe men.
    fn enemy_stands(
        &self,
        pos: &RefPos,
        enemy_kinds: &[usize],
        inside: &[(i32, i32)],
        safe: &[(i32, i32)],
    ) -> (Vec<(i32, i32)>, Vec<(i32, i32)>) {
        let (mut hammers, mut anvils) = (Vec::new(), Vec::new());
        let always = |e: usize, x: i32, y: i32, landing: bool| {
            let name = &self.rules.pieces[e].name;
            self.rules.access.iter().any(|rule| {
                rule.condition == AccessCondition::Always
                    && rule.pieces.contains(name)
                    && self.in_region(&rule.region, x, y)
                    && if landing {
                        rule.action.includes_landing()
                    } else {
                        rule.action.includes_passing()
                    }
            })
        };
        for &e in enemy_kinds {
            let mut pieces = Vec::new();
            for r in 0..self.h {
                for f in 0..self.w {
                    if self.at(pos, f, r) == Some(e) {
                        pieces.push((f, r));
                    }
                }
            }
            let open = |x: i32, y: i32| {
                pieces.contains(&(x, y))
                    || (!inside.contains(&(x, y))
                        && !safe.contains(&(x, y))
                        && !always(e, x, y, false))
            };
            let stands: Vec<(i32, i32)> = self
                .reach(pieces.clone(), open)
                .into_iter()
                .filter(|&(x, y)| pieces.contains(&(x, y)) || !always(e, x, y, true))
                .collect();
            let armed = self.rules.pieces[e].armed;
            if armed.as_hammer() {
                hammers.extend(stands.iter().copied());
            }
            if armed.as_anvil() {
                anvils.extend(stands);
            }
        }
        (hammers, anvils)
    }

    /// Whether the man on `man` stands in a row along an edge that a shieldwall could take while
    /// the safe men stand: two or more men of his side, none inside the fort, each faced by an
    /// anvil's square, both ends a counting square or an open square an enemy could reach.
    fn fort_shieldwall(
        &self,
        pos: &RefPos,
        man: (i32, i32),
        victim: usize,
        inside: &[(i32, i32)],
        safe: &[(i32, i32)],
        hammers: &[(i32, i32)],
        anvils: &[(i32, i32)],
    ) -> bool {
        let Some(wall) = &self.rules.shieldwall else {
            return false;
        };
        if !wall.victims.contains(&self.rules.pieces[victim].name) {
            return false;
        }
        let side = self.side_of(victim);
        for (line, (fx, fy)) in self.edge_lines() {
            let Some(i) = line.iter().position(|&sq| sq == man) else {
                continue;
            };
            let member = |j: usize| {
                let (x, y) = line[j];
                self.at(pos, x, y).is_some_and(|k| self.side_of(k) == side)
                    && !inside.contains(&(x, y))
                    && anvils.contains(&(x + fx, y + fy))
            };
            let end = |j: usize| {
                let (x, y) = line[j];
                wall.counting.iter().any(|c| self.in_region(c, x, y))
                    || (!inside.contains(&(x, y))
                        && !safe.contains(&(x, y))
                        && (hammers.contains(&(x, y)) || anvils.contains(&(x, y))))
            };
            for start in 1..=i {
                for stop in i..line.len() - 1 {
                    if stop > start && (start..=stop).all(member) && end(start - 1) && end(stop + 1)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The ending caused by an automatic repetition rule for `pos`, given the earlier positions.
    pub fn repetition(&self, pos: &RefPos, history: &[RefPos]) -> Option<End> {
        let rule = self.rules.outcome.repetition?;
        if rule.claim != Claim::Automatic {
            return None;
        }
        let seen = 1 + history
            .iter()
            .filter(|p| {
                p.board == pos.board && p.to_move == pos.to_move && p.berserker == pos.berserker
            })
            .count() as u32;
        (seen >= rule.occurrences).then_some(match rule.result {
            RepetitionResult::Draw => (None, "repetition"),
            RepetitionResult::MoverLoses => (Some(pos.to_move), "repetition"),
            RepetitionResult::MoverWins => (Some(pos.to_move.opponent()), "repetition"),
            RepetitionResult::Loses(loser) => (Some(loser.opponent()), "repetition"),
        })
    }

    pub fn perft(&self, pos: &RefPos, depth: u32, history: &mut Vec<RefPos>) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        history.push(pos.clone());
        for (from, to) in moves {
            let mut child = pos.clone();
            let (_, end) = self.play(&mut child, from, to);
            if end.is_some() || self.repetition(&child, history).is_some() {
                continue;
            }
            total += self.perft(&child, depth - 1, history);
        }
        history.pop();
        total
    }
}
