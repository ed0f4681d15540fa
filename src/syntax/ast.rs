//! The syntax tree of a variant file: what each clause says, with the span of every part.
//!
//! Nothing here is checked against anything else: names are just names, squares just text.
//! The checker (`crate::check`) gives them meaning.

use crate::ir::Side;
use crate::span::{Span, Spanned};

/// A parsed variant file: its clauses in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// The clauses, in file order.
    pub clauses: Vec<Clause>,
    /// The lines left out because they could not be parsed (each already reported), with their
    /// text: checks that a missing clause might have satisfied look here before reporting it.
    pub broken: Vec<Spanned<String>>,
}

/// One clause and the span of its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// What it says.
    pub kind: ClauseKind,
    /// The whole clause (for the setup diagram, from `setup` to `end`).
    pub span: Span,
}

/// What a clause says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClauseKind {
    /// `name "..."`
    Name(Spanned<String>),
    /// `source "..."`
    Source(Spanned<String>),
    /// `family "..."`
    Family(Spanned<String>),
    /// `note "..."`
    Note(Spanned<String>),
    /// `board W x H`
    Board {
        /// Files.
        width: Spanned<u32>,
        /// Ranks.
        height: Spanned<u32>,
    },
    /// `attackers are called "Muscovites"`
    SideName {
        /// The side.
        side: Spanned<Side>,
        /// Its name.
        name: Spanned<String>,
    },
    /// `attackers move first`
    FirstMove(Spanned<Side>),
    /// `piece K king: defender king, called "King"`
    Piece(PieceDecl),
    /// `region camps = d1 e1 f1 e2` or `square throne = e5`
    Region {
        /// The name defined.
        name: Spanned<String>,
        /// The squares, as written.
        squares: Vec<SquareItem>,
    },
    /// `setup` ... `end`
    Setup(Vec<SetupRow>),
    /// `king moves like a rook, at most 3 squares`
    Movement {
        /// Who moves so.
        pieces: PieceSet,
        /// How.
        movement: Spanned<MovementSpec>,
    },
    /// `nobody may land on the throne`
    Access {
        /// Who the clause is about.
        who: Who,
        /// `may` (true) or `may not` (false).
        allowed: bool,
        /// Land, pass or enter.
        action: Spanned<AccessAction>,
        /// Where.
        region: RegionRef,
        /// `once left`, `while its group is empty`.
        condition: Option<Spanned<AccessWhen>>,
    },
    /// `the king is unarmed`
    Armed {
        /// Whom it is about.
        pieces: PieceSet,
        /// How armed.
        armed: Spanned<Armedness>,
    },
    /// `the throne is hostile to everyone when empty`
    Hostility {
        /// The hostile squares.
        region: RegionRef,
        /// To whom.
        victims: PieceSet,
        /// When.
        when: Option<Spanned<HostileWhen>>,
    },
    /// `the king is captured beside the throne when surrounded on four sides, counting the throne`
    KingCapture {
        /// The royal pieces concerned.
        pieces: PieceSet,
        /// Where the king stands.
        place: Spanned<PlaceSpec>,
        /// How he is captured there.
        method: Spanned<CaptureSpec>,
        /// Regions counting as hostile sides (`edge` is the board's edge).
        counting: Vec<RegionRef>,
        /// `, even when he moves there`.
        own_move: Option<Span>,
    },
    /// `defenders win when the king reaches the edge` / `... is captured`
    Win {
        /// The winner.
        side: Spanned<Side>,
        /// The pieces whose fate decides.
        pieces: PieceSet,
        /// What must happen.
        event: WinEvent,
    },
    /// `soldiers are captured in a shieldwall, counting corners`
    Shieldwall {
        /// The pieces the wall takes.
        victims: PieceSet,
        /// Regions bracketing a row like an enemy.
        counting: Vec<RegionRef>,
        /// `, after any move`.
        after_any_move: Option<Span>,
    },
    /// `attackers win when no defender can reach the edge` / `... every defender is surrounded`
    Encirclement {
        /// The winner.
        side: Spanned<Side>,
        /// The side enclosed, as written (`defender`).
        enclosed: Spanned<Side>,
        /// Which reading.
        reading: EnclosureWords,
    },
    /// `the defenders lose when they cannot move` / `... when a position occurs N times`
    SideLoses {
        /// The side that loses.
        side: Spanned<Side>,
        /// When.
        condition: SideLossCondition,
    },
    /// `a side that cannot move loses`
    NoMovesLoses,
    /// `a side that makes a position occur N times loses` (`wins`)
    RepetitionLoses {
        /// The occurrence that decides.
        count: Spanned<u32>,
        /// `wins` instead of `loses`.
        mover_wins: bool,
    },
    /// `the game is drawn ...`
    Draw {
        /// When.
        condition: DrawCondition,
        /// `, on claim`.
        on_claim: Option<Span>,
    },
    /// `the knight may jump over an attacker, capturing it`
    Jump {
        /// Who jumps.
        pieces: PieceSet,
        /// Whom they jump over.
        over: PieceSet,
        /// `, only from or to <regions>`: the regions, if the jump is restricted.
        only_from_or_to: Vec<RegionRef>,
        /// `, capturing it`, if the jumped piece is taken.
        captures: Option<Span>,
    },
    /// `after a capture the capturing piece ...`
    Berserk(Spanned<BerserkWords>),
    /// `the king is also captured between two commanders, counting corners, except on the throne`
    Sandwich {
        /// The kings.
        kings: PieceSet,
        /// The captors.
        captors: PieceSet,
        /// `, counting <regions>`.
        counting: Vec<RegionRef>,
        /// `, except on <regions>`.
        except_on: Vec<RegionRef>,
    },
    /// `a piece may move back and forth between two squares at most N times`
    BackAndForth(Spanned<u32>),
    /// `announce "Raichi" when the king has 1 clear route to the edge`
    Announce {
        /// The word.
        word: Spanned<String>,
        /// The piece, by name.
        piece: Spanned<String>,
        /// How many routes.
        routes: Spanned<u32>,
        /// To where.
        region: RegionRef,
    },
}

/// `piece K king: defender king, called "King"`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDecl {
    /// The diagram symbol.
    pub symbol: Spanned<char>,
    /// The name rules use.
    pub name: Spanned<String>,
    /// The side.
    pub side: Spanned<Side>,
    /// Soldier or king.
    pub role: Spanned<RoleWord>,
    /// `called "..."`.
    pub display: Option<Spanned<String>>,
    /// `plural "..."`.
    pub plural: Option<Spanned<String>>,
}

/// `soldier` or `king` in a piece declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoleWord {
    /// `soldier`
    Soldier,
    /// `king`
    King,
}

/// A square or a rectangle of squares, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareItem {
    /// `e5`
    Single(Spanned<String>),
    /// `a1..c3`
    Range(Spanned<String>, Spanned<String>),
}

impl SquareItem {
    /// The span of the whole item.
    pub fn span(&self) -> Span {
        match self {
            SquareItem::Single(square) => square.span,
            SquareItem::Range(from, to) => from.span.join(to.span),
        }
    }
}

/// One rank of the setup diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupRow {
    /// The symbols, left to right.
    pub cells: Vec<Spanned<char>>,
    /// The row's text.
    pub span: Span,
}

/// A set of pieces as written: `the king and black-draug`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSet {
    /// The items.
    pub items: Vec<Spanned<PieceSetItem>>,
    /// The whole set.
    pub span: Span,
}

/// One item of a piece set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceSetItem {
    /// `everyone`
    Everyone,
    /// `attackers`, `defenders`
    Side(Side),
    /// `soldiers`, `kings`
    Role(RoleWord),
    /// One side's soldiers or kings: `defending soldiers`, `the attackers' men`.
    SideRole(Side, RoleWord),
    /// A piece kind by name.
    Named(String),
}

/// Who an access clause is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// `nobody`
    Nobody(Span),
    /// `only <set>`: the set may, everyone else may not.
    Only(PieceSet),
    /// `<set>`
    Pieces(PieceSet),
}

impl Who {
    /// The span of the words.
    pub fn span(&self) -> Span {
        match self {
            Who::Nobody(span) => *span,
            Who::Only(set) | Who::Pieces(set) => set.span,
        }
    }
}

/// A region by name; `the`/`a` dropped.
pub type RegionRef = Spanned<String>;

/// How pieces move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovementSpec {
    /// `like a rook`, optionally `, at most N squares`.
    Rook {
        /// The limit, if any.
        max: Option<Spanned<u32>>,
    },
    /// `to any empty square`
    AnyEmptySquare,
}

/// `land on`, `pass through`, `enter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessAction {
    /// `land on`
    Land,
    /// `pass through` / `pass over`
    Pass,
    /// `enter`
    Enter,
}

/// The condition of an access clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessWhen {
    /// `once left`
    OnceLeft,
    /// `while its group is empty`
    WhileGroupEmpty,
}

/// `armed`, `unarmed`, `armed only when moving`, `armed only when still`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Armedness {
    /// `armed`
    Armed,
    /// `unarmed`
    Unarmed,
    /// `armed only when moving`
    Hammer,
    /// `armed only when still`
    Anvil,
}

/// When a hostile square is hostile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostileWhen {
    /// `when empty`
    Empty,
    /// `when occupied [by <set>] [with N enemies beside it]`
    Occupied {
        /// By whom, if said.
        by: Option<PieceSet>,
        /// How many enemies beside, if said.
        enemies_beside: Option<Spanned<u32>>,
    },
}

/// Where a king-capture clause applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceSpec {
    /// `on <region>`
    On(RegionRef),
    /// `beside <region>`
    Beside(RegionRef),
    /// `elsewhere`
    Elsewhere,
    /// `anywhere`
    Anywhere,
}

/// How a king is captured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaptureSpec {
    /// `when surrounded on four sides`
    Enclosed,
    /// `when surrounded together with <region>`: the king and the empty square of the region
    /// beside him, enclosed as one.
    Together(RegionRef),
    /// `like a soldier`
    Custodial,
}

/// What wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WinEvent {
    /// `reaches <region>`
    Reaches(RegionRef),
    /// `is captured`
    Captured(Span),
    /// `holds an edge fort`
    HoldsFort(Span),
}

/// Which encirclement clause was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnclosureWords {
    /// `no defender can reach the edge`
    NoEdgeAccess,
    /// `every defender is surrounded`
    EverySurrounded,
}

/// When a side loses, in a `<side> lose when ...` clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SideLossCondition {
    /// `when they cannot move`
    NoMoves(Span),
    /// `when a position repeats` (2) or `when a position occurs N times`.
    Repetition(Spanned<u32>),
}

/// When the game is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawCondition {
    /// `when a position repeats` (2) or `when a position occurs N times`.
    Repetition(Spanned<u32>),
    /// `when a side cannot move` (`None`), `when the attackers cannot move` (that side).
    NoMoves(Option<Spanned<Side>>),
    /// `after N moves without capture`
    NoCapture(Spanned<u32>),
    /// `by agreement`
    Agreement(Span),
}

/// What a berserk clause says the capturing piece does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BerserkWords {
    /// `must capture again while it can`
    CaptureAgain,
    /// `moves again while it can capture`
    MoveWhileItCanCapture,
    /// `moves again`
    MoveAgain,
}
