//! The intermediate representation: the validated, fully resolved rules of one variant.
//!
//! [`Rules`] is plain data. Every default of the language is written out here, so a reader of
//! `tafl ir VARIANT` (and the engine) never has to know what the language leaves implicit.
//! Pieces and regions are referred to by name; regions carry their resolved squares.
//! [`Rules`] carries no source spans: a [`SourceMap`] ties each rule back to its clause.
//!
//! The JSON form is stable and strict: unknown fields are rejected on input.

mod source;
mod square;
mod validate;

pub use source::{RuleRef, SourceMap};

/// The most piece kinds a variant may declare: the engine sizes its tables by it, and the checker
/// reports a variant with more as a limit.
pub const MAX_KINDS: usize = 8;
pub use validate::{Resolved, RulesError};

pub use square::{
    BySide, ParseSideError, ParseSquareError, Side, Square, MAX_BOARD_SIDE, MIN_BOARD_SIDE,
};

use serde::{Deserialize, Serialize};

/// The complete rules of one variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The variant's name, as a player would say it ("Linnaeus' Tablut").
    pub name: String,
    /// Where the rules come from, if the file says.
    pub source: Option<String>,
    /// The game this variant is a version of ("tablut", "brandubh"), if the file says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// Free-text notes for players, in file order.
    pub notes: Vec<String>,
    /// The board's size.
    pub board: Board,
    /// What each side is called in this variant.
    pub sides: BySide<SideInfo>,
    /// The side that makes the first move.
    pub first_to_move: Side,
    /// The kinds of piece, in declaration order. Rules refer to them by [`PieceKind::name`].
    pub pieces: Vec<PieceKind>,
    /// Every named set of squares the rules use, built-in ones (`throne`, `corners`, `edge`)
    /// included, with their squares resolved.
    pub regions: Vec<Region>,
    /// The start position: one string per rank, the top rank (rank N) first, one piece symbol or
    /// `.` per square.
    pub setup: Vec<String>,
    /// Where pieces may not go. Everything not forbidden here is allowed.
    pub access: Vec<AccessRule>,
    /// Squares that act as a captor against some pieces, and when.
    pub hostility: Vec<HostilityRule>,
    /// How royal pieces (kings) are captured, by where they stand. The squares of the rules are
    /// disjoint and together cover the board: exactly one rule applies on every square.
    pub king_capture: Vec<KingCaptureRule>,
    /// Further ways to take a king, in addition to the rule of his square: between two pieces
    /// of a kind (Berserk: between two commanders).
    pub king_sandwiches: Vec<KingSandwich>,
    /// The shieldwall capture of a row of men on the board's edge, if the variant has it.
    pub shieldwall: Option<Shieldwall>,
    /// Who may jump over an adjacent enemy, and how (Berserk's king, knight and commanders).
    pub jumps: Vec<JumpRule>,
    /// Whether a piece that captures moves again (Berserk), and how; `None`: the turn passes.
    pub berserk: Option<Berserk>,
    /// How the game ends.
    pub outcome: Outcome,
    /// Calls a player makes when the position allows it (Raichi, Tuichi).
    pub announcements: Vec<Announcement>,
}

/// The board's dimensions, in squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Files (columns), `a` onwards.
    pub width: u8,
    /// Ranks (rows), `1` onwards.
    pub height: u8,
}

/// How a variant names a side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideInfo {
    /// The side's name in this variant ("Muscovites"); `Attackers`/`Defenders` by default.
    pub name: String,
}

/// One kind of piece: its symbol in diagrams, its side, its role and its abilities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceKind {
    /// The identifier rules use (`king`, `muscovite`, `black-draug`).
    pub name: String,
    /// The name shown to players ("Black Draug").
    pub display: String,
    /// The plural shown to players when it is not the regular one ("Men" for "Man"); see
    /// [`crate::english::piece_plural`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plural: Option<String>,
    /// The character standing for this piece in setup diagrams and position strings:
    /// lowercase for attackers, uppercase for defenders.
    pub symbol: char,
    /// The side the piece fights for.
    pub side: Side,
    /// A soldier or a king.
    pub role: Role,
    /// Whether the piece helps capture enemies.
    pub armed: Armed,
    /// How the piece moves.
    pub movement: Movement,
}

/// What a piece is to its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// An ordinary piece, captured between two enemies.
    Soldier,
    /// A royal piece: captured by the king-capture rules, and the piece escape rules name.
    King,
}

/// Whether, and how, a piece takes part in captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Armed {
    /// Captures both as the moving piece and as the piece standing on the other side.
    Yes,
    /// Never takes part in a capture.
    No,
    /// Captures only as the moving piece ("the king can capture if he's the moving piece").
    Hammer,
    /// Captures only as the stationary piece, against which an ally captures.
    Anvil,
}

impl Armed {
    /// Whether the piece counts as a captor when it is the piece that moved.
    pub const fn as_hammer(self) -> bool {
        matches!(self, Armed::Yes | Armed::Hammer)
    }

    /// Whether the piece counts as a captor when it stands still.
    pub const fn as_anvil(self) -> bool {
        matches!(self, Armed::Yes | Armed::Anvil)
    }
}

/// How a piece moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    /// The pattern of the move.
    pub style: MoveStyle,
    /// The longest move in squares, if limited (rook moves only).
    pub max_distance: Option<u8>,
}

/// The pattern of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveStyle {
    /// Any distance along a rank or file over empty squares, like a rook in chess.
    Rook,
    /// To any empty square of the board, whatever lies between.
    AnyEmptySquare,
}

/// A named set of squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    /// The name rules use (`throne`, `corners`, `barrows`).
    pub name: String,
    /// The squares, sorted by rank then file.
    pub squares: Vec<Square>,
}

/// A prohibition: these pieces may not land on, or pass through, these squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccessRule {
    /// The pieces barred, by name.
    pub pieces: Vec<String>,
    /// What they may not do there.
    pub action: Action,
    /// The region, by name.
    pub region: String,
    /// When the prohibition holds.
    pub condition: AccessCondition,
}

/// What an access rule forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Ending a move on the square.
    Land,
    /// Moving over the square to one beyond it.
    Pass,
    /// Both landing on and passing through.
    Enter,
}

impl Action {
    /// Whether the action includes ending a move on the square.
    pub const fn includes_landing(self) -> bool {
        matches!(self, Action::Land | Action::Enter)
    }

    /// Whether the action includes moving over the square.
    pub const fn includes_passing(self) -> bool {
        matches!(self, Action::Pass | Action::Enter)
    }
}

/// When an access rule holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessCondition {
    /// Always.
    Always,
    /// Only for a piece that has stood on a square of the region and has since stopped outside
    /// it (Ashton camps; "may not return once he has left"). A piece that never stood in the
    /// region is barred too.
    OnceLeft,
    /// Only while the orthogonally connected group of region squares that holds the target square
    /// has no piece on it (Thrones and Bones barrows, first reading).
    WhileGroupEmpty,
}

/// A rule making some squares hostile: they act like an enemy piece when capturing the victims.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostilityRule {
    /// The hostile squares, by region name.
    pub region: String,
    /// The pieces the squares are hostile to, by name.
    pub victims: Vec<String>,
    /// When the squares are hostile.
    pub when: Hostile,
}

/// When a hostile square is hostile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Hostile {
    /// Always, whatever stands on it (even a piece of the victim's own side).
    Always,
    /// Only while no piece stands on it.
    WhenEmpty,
    /// Only while one of `by` stands on it, with at least `enemies_beside` of the square's
    /// neighbours held by enemies of the victim (Linnaeus' rule 11: the throne, with the king on
    /// it and attackers on his other three sides, is hostile to a defender on the fourth).
    WhenOccupied {
        /// The pieces whose presence makes the square hostile, by name.
        by: Vec<String>,
        /// How many of the square's orthogonal neighbours must hold the victim's enemies.
        enemies_beside: u8,
    },
}

/// How a king is captured where this rule applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KingCaptureRule {
    /// Where the rule applies, as the file says it.
    pub place: Place,
    /// The squares where it applies, resolved.
    pub squares: Vec<Square>,
    /// What captures the king there.
    pub method: KingCaptureMethod,
    /// Regions whose squares count as hostile sides for this rule (the throne as the fourth side),
    /// for either method, in addition to the squares hostile to the king by the hostility rules.
    pub counting: Vec<String>,
    /// Whether beyond the board's edge counts as a hostile side (a king on the edge taken by
    /// three), for either method.
    pub edge_counts: bool,
    /// Whether the rule is also checked after a move of the king's own side, so that a king who
    /// moves into an enclosure (or is left in one) is captured; otherwise only an enemy's move
    /// captures, as for every other piece. Thrones and Bones' app takes the Jarl who moves into a
    /// square enclosed on four sides.
    pub after_own_move: bool,
}

/// Where a king-capture rule applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Place {
    /// On a square of the region.
    On(String),
    /// On a square orthogonally next to the region and not in it.
    Beside(String),
    /// Wherever no other rule applies.
    Elsewhere,
}

/// What captures a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KingCaptureMethod {
    /// Like a soldier: between two hostile squares on opposite sides, one of them the piece
    /// that moved.
    Custodial,
    /// Enemies (or counting squares) on all four sides, one of them the piece that moved. As
    /// for any capture, the moving piece must be armed as a hammer and the enemies standing
    /// still as anvils.
    Enclosed,
    /// Enclosed together with the square beside him: only for a rule whose place is
    /// [`Place::Beside`] a region. A side of the king counts as for [`Self::Enclosed`], or, when
    /// it is an empty square of that region, when every other side of that square counts in the
    /// same way; the moving piece is one of the enemies round the king or round that square.
    /// On an open board that is six enemies round the king and the empty throne beside him
    /// (NorseAmerica's "six attackers can surround the king on the throne plus an extra
    /// square").
    EnclosedTogether,
}

/// An extra way to take a king: between a piece of the capturing kinds that moved next to him
/// and, on the opposite side, another such piece or a counting square (Berserk: "between two
/// commanders, or a commander and a corner"). It applies wherever the king stands except on the
/// excepted regions, in addition to the [`KingCaptureRule`] of his square; hostile squares and
/// other pieces do not count for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KingSandwich {
    /// The kings this rule takes, by name.
    pub kings: Vec<String>,
    /// The kinds that take him this way, by name: the moving piece and the one opposite.
    pub captors: Vec<String>,
    /// Regions whose squares stand in for the piece opposite (`corners` in Berserk).
    pub counting: Vec<String>,
    /// Regions where the rule does not apply (`throne` in Berserk: "not on the throne").
    pub except_on: Vec<String>,
}

/// A jump (Berserk 3b): a piece leaps over one orthogonally adjacent enemy onto the empty square
/// just beyond it. A jump is a move of its own, besides the piece's ordinary moves; the landing
/// square follows the access rules like any move's, and the jumped square needs no passing
/// right (the piece goes over the enemy, not through the square).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JumpRule {
    /// The kinds that may jump, by name.
    pub pieces: Vec<String>,
    /// The enemy kinds they may jump over, by name.
    pub over: Vec<String>,
    /// When not empty, a jump must start or land on a square of one of these regions
    /// (Berserk's king jumps only from or to a restricted square).
    pub only_from_or_to: Vec<String>,
    /// Whether the jumped piece is captured (Berserk's knight); otherwise the jump captures only
    /// as any move does, by where it lands.
    pub captures: bool,
}

/// What a piece that has just captured does next (Berserk's "berserk move"). Each further move
/// is a ply of its own, by the same side; the turn passes when the rule stops granting one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Berserk {
    /// While the capturing piece can capture again, it must: the same side moves it again, and
    /// the move must capture (the Berserk rule sheet; the hnefatafl crate's `MustCapture`).
    CaptureAgain,
    /// While the capturing piece has a capturing move, the same side must move it again, but
    /// any move of it will do (OpenTafl's `ber:c` as its code plays it).
    MoveWhileItCanCapture,
    /// The capturing piece must make one more move, any move, if it has one (OpenTafl's
    /// `ber:m`).
    MoveAgain,
}

/// The shieldwall capture (Copenhagen 5b): a row of two or more men along the board's edge,
/// bracketed at both ends and each with an enemy on the square in front of it, is captured at
/// once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shieldwall {
    /// The pieces the wall takes, by name. Other pieces of the same side may stand in the row
    /// (Copenhagen's king): they make the row whole but are not taken.
    pub victims: Vec<String>,
    /// Regions whose squares bracket a row like an enemy piece (`corners` in Copenhagen).
    pub counting: Vec<String>,
    /// Which moves complete a wall.
    pub trigger: ShieldwallTrigger,
}

/// Which moves complete a shieldwall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShieldwallTrigger {
    /// Only a move onto the edge square at one end of the row, bracketing it (Copenhagen:
    /// "the capturing move must be a flanking move").
    Flanking,
    /// Any move of the capturing side that leaves a row bracketed and fronted.
    AnyMove,
}

/// How the game ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// A piece reaching a region wins for its side.
    pub escapes: Vec<Escape>,
    /// Capturing a piece wins for its captors.
    pub decisive_captures: Vec<DecisiveCapture>,
    /// A piece holding an edge fort wins for its side.
    pub edge_forts: Vec<EdgeFort>,
    /// Enclosing the other side wins, by each of these readings (OpenTafl checks two).
    pub encirclements: Vec<Encirclement>,
    /// What happens to each side when it has no legal move on its turn.
    pub no_moves: BySide<NoMoves>,
    /// What a repeated position does, if anything.
    pub repetition: Option<Repetition>,
    /// How many times one piece may move back and forth between the same two squares; a further
    /// such move is illegal. `None`: no limit.
    pub back_and_forth_limit: Option<u32>,
    /// A draw after this many moves by each side with no capture, if any.
    pub no_capture_draw: Option<MoveLimit>,
    /// Whether the players may agree a draw.
    pub draw_by_agreement: bool,
}

/// A piece reaching a region wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Escape {
    /// The piece, by name.
    pub piece: String,
    /// The region it must reach, by name.
    pub region: String,
    /// The side that wins.
    pub winner: Side,
}

/// Capturing a piece wins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisiveCapture {
    /// The piece, by name.
    pub piece: String,
    /// The side that wins.
    pub winner: Side,
}

/// A piece standing in an edge fort wins (Copenhagen's exit fort).
///
/// The fort holds when the piece stands on the board's edge, can move, and its side's pieces
/// around the empty squares it can reach cannot be captured: every such wall piece has, on each
/// line through it, a friend, a square of the fort's inside or the board's edge on one side, so
/// the attackers can neither take a wall piece nor enter the fort.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeFort {
    /// The piece, by name.
    pub piece: String,
    /// The side that wins.
    pub winner: Side,
}

/// The winner encloses the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Encirclement {
    /// The side that wins by it; the other side is the one enclosed.
    pub winner: Side,
    /// What counts as enclosed.
    pub reading: EncirclementReading,
}

/// What counts as enclosing a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EncirclementReading {
    /// No piece of the side stands on the edge or can reach it over empty squares: an unbroken
    /// ring of enemies holds them all (Copenhagen rule 6, OpenTafl's `surf:y`).
    NoEdgeAccess,
    /// No piece of the side, king included, has an empty square beside it: pieces of either
    /// side or the board's edge all round (OpenTafl's "no defender has an empty neighbour").
    EverySurrounded,
}

/// What happens to a side that cannot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoMoves {
    /// It loses.
    Loses,
    /// The game is drawn.
    Draw,
}

/// A rule on repeated positions (the same pieces on the same squares, the same side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Repetition {
    /// The occurrence that triggers the rule: 2 = the first repetition, 3 = threefold.
    pub occurrences: u32,
    /// What it does.
    pub result: RepetitionResult,
    /// Whether the game ends by itself or a player must claim it.
    pub claim: Claim,
}

/// What a repetition does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepetitionResult {
    /// The game is drawn.
    Draw,
    /// The side whose move made the repetition loses (OpenTafl `tfr:w`).
    MoverLoses,
    /// The side whose move made the repetition wins (OpenTafl `tfr:l`).
    MoverWins,
    /// This side loses, whoever made the repetition (Copenhagen: "perpetual repetition loses
    /// for the defenders").
    Loses(Side),
}

/// Whether a draw rule ends the game by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// The game ends as soon as the condition holds.
    Automatic,
    /// A player may claim the result while the condition holds; play goes on otherwise.
    Claimable,
}

/// A limit on moves without capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveLimit {
    /// Moves by each side.
    pub moves: u32,
    /// Whether the draw is automatic or claimed.
    pub claim: Claim,
}

/// A call a player makes when a piece has open routes to a region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Announcement {
    /// The word to say ("Raichi").
    pub word: String,
    /// The piece whose routes count, by name.
    pub piece: String,
    /// How many clear one-move routes it must have.
    pub routes: u32,
    /// The region the routes lead to, by name.
    pub region: String,
}

impl Rules {
    /// The piece kind called `name`.
    pub fn piece(&self, name: &str) -> Option<&PieceKind> {
        self.pieces.iter().find(|piece| piece.name == name)
    }

    /// The piece kind drawn as `symbol`.
    pub fn piece_by_symbol(&self, symbol: char) -> Option<&PieceKind> {
        self.pieces.iter().find(|piece| piece.symbol == symbol)
    }

    /// The region called `name`.
    pub fn region(&self, name: &str) -> Option<&Region> {
        self.regions.iter().find(|region| region.name == name)
    }

    /// The pieces on the start position, with their squares, bottom rank first.
    pub fn start_pieces(&self) -> Vec<(Square, &PieceKind)> {
        let height = self.setup.len();
        let mut placed = Vec::new();
        for (row, text) in self.setup.iter().enumerate() {
            let rank = (height - 1 - row) as u8;
            for (file, symbol) in text.chars().enumerate() {
                if let Some(piece) = self.piece_by_symbol(symbol) {
                    placed.push((Square::new(file as u8, rank), piece));
                }
            }
        }
        placed.sort_by_key(|(square, _)| (square.rank, square.file));
        placed
    }

    /// The rules as pretty JSON, the form `tafl ir` prints.
    pub fn to_json(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).expect("rules serialise to JSON")
    }

    /// Reads rules from their JSON form and checks them ([`Rules::validate`]).
    ///
    /// # Errors
    /// [`RulesJsonError`] when the JSON is malformed, has unknown or missing fields, or
    /// describes rules that break an invariant of the IR (an unknown piece, a square off the
    /// board ...).
    pub fn from_json(text: &str) -> Result<Rules, RulesJsonError> {
        let value: serde_json::Value = serde_json::from_str(text)?;
        // The checker keeps a control character in a string as its escape (`\u{1b}`); rules
        // given as JSON skip the checker, so one is refused here rather than reach a terminal.
        if let Some(string) = control_string(&value) {
            return Err(RulesJsonError::ControlCharacter(
                crate::printable::quoted(string).into_owned(),
            ));
        }
        let rules: Rules = serde_json::from_value(value)?;
        rules.validate()?;
        Ok(rules)
    }
}

/// The first string in `value` that holds a character that would act on a terminal.
fn control_string(value: &serde_json::Value) -> Option<&str> {
    match value {
        serde_json::Value::String(text) => text.chars().any(crate::printable::acts).then_some(text),
        serde_json::Value::Array(items) => items.iter().find_map(control_string),
        serde_json::Value::Object(fields) => fields.iter().find_map(|(key, item)| {
            if key.chars().any(crate::printable::acts) {
                Some(key.as_str())
            } else {
                control_string(item)
            }
        }),
        serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_) => None,
    }
}

/// Why [`Rules::from_json`] refused its text.
#[derive(Debug, thiserror::Error)]
pub enum RulesJsonError {
    /// The text is not the JSON form of rules.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The rules break an invariant of the IR.
    #[error(transparent)]
    Invalid(#[from] RulesError),
    /// A string holds a control character (ESC, BEL, a C1 control); the string is quoted with
    /// it escaped.
    #[error("the string \"{0}\" holds a control character; the rules may not")]
    ControlCharacter(String),
}
