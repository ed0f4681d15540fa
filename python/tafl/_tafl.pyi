"""Type stubs of tafl._tafl, the Rust half of the package."""

import os
from typing import Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

MAX_GAMES: int
"""The most games one ``selfplay`` or ``selfplay_games`` call plays (1,000,000)."""
MAX_DEPTH: int
"""The deepest search (100 plies)."""
MAX_PLAYOUT_CAP: int
"""The longest random playout of ``playouts`` (1,000,000 plies)."""

class LintError(ValueError):
    """The variant text has errors; ``diagnostics`` lists every problem (errors and warnings).
    Named ``tafl.LintError``; pickles with its diagnostics (so it crosses Ray as itself)."""

    diagnostics: list[Diagnostic]

class IllegalMoveError(ValueError):
    """The move is not legal here (or cannot be read); the game is unchanged. Named
    ``tafl.IllegalMoveError``."""

class Diagnostic:
    """One problem the checker found in a variant text. Compares and pickles by its fields."""

    def __init__(
        self,
        code: str,
        severity: str,
        message: str,
        line: int,
        column: int,
        span: Optional[tuple[int, int]],
        labels: list[tuple[int, int, str]],
        help: Optional[str],
        origin: str,
    ) -> None: ...

    code: str
    """The stable code, e.g. ``unknown-piece`` (docs/diagnostics.md)."""
    severity: str
    """``error``, ``warning`` or ``note``."""
    message: str
    line: int
    """1-based line of the main span (0 without a span)."""
    column: int
    span: Optional[tuple[int, int]]
    """The main span as byte offsets (start, end) into the text."""
    labels: list[tuple[int, int, str]]
    """Every span concerned, the main one first: (start, end, text)."""
    help: Optional[str]
    origin: str

class Variant:
    """A checked variant, compiled for play. ``Variant(name_or_path)``; text with errors raises
    ``LintError``. Pickles as its text."""

    def __init__(self, name_or_path: Union[str, os.PathLike[str], Variant]) -> None: ...
    @staticmethod
    def bundled(name: str) -> Variant: ...
    @staticmethod
    def from_file(path: str) -> Variant: ...
    @staticmethod
    def from_text(text: str, origin: str = "<string>") -> Variant: ...
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> Optional[str]: ...
    @property
    def family(self) -> Optional[str]: ...
    @property
    def origin(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def first_to_move(self) -> str: ...
    @property
    def pieces(self) -> list[tuple[str, str, str, str]]:
        """(name, side, symbol, role) of each piece kind, in plane order."""
    @property
    def regions(self) -> list[tuple[str, list[str]]]:
        """(name, squares) of each region, in plane order."""
    @property
    def warnings(self) -> list[Diagnostic]: ...
    @property
    def action_count(self) -> int:
        """The size of the fixed action space."""
    @property
    def action_kind(self) -> str:
        """``line`` (from-square x direction x distance) or ``from_to``."""
    def action_move(self, action: int) -> Optional[Move]:
        """``None`` for an int no move has (negative, past the last); ``TypeError`` for a non-int."""
    def move_action(self, mv: Union[Move, str]) -> Optional[int]: ...

class Move:
    """A move, written ``e1-e3``. Pickles as its text."""

    def __init__(self, text: str) -> None: ...
    @property
    def from_square(self) -> str: ...
    @property
    def to_square(self) -> str: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

class SearchResult:
    """What the computer's search found. Compares and pickles by its fields."""

    def __init__(
        self,
        best: Optional[Move],
        score: int,
        score_text: str,
        depth: int,
        nodes: int,
        pv: list[Move],
        seconds: float,
    ) -> None: ...

    move: Optional[Move]
    score: int
    """Hundredths of a soldier for the side to move, or ±(1,000,000 − plies) for a forced result."""
    score_text: str
    depth: int
    nodes: int
    pv: list[Move]
    seconds: float

class Game:
    """A game of a variant: ``Game("copenhagen")``, ``Game(variant, position=..., to_move=...)``.
    Pickles as its variant, first position and moves."""

    def __init__(
        self,
        variant: Union[str, os.PathLike[str], Variant],
        position: Optional[str] = None,
        to_move: Optional[str] = None,
    ) -> None: ...
    @property
    def variant(self) -> Variant: ...
    def legal_moves(self) -> list[Move]: ...
    def play(self, mv: Union[Move, str]) -> list[str]:
        """Plays a move; returns the captured squares. Illegal: ``IllegalMoveError``, nothing changes."""
    def undo(self) -> Optional[Move]: ...
    @property
    def status(self) -> str:
        """``ongoing``, ``attackers_win``, ``defenders_win`` or ``draw``."""
    @property
    def winner(self) -> Optional[str]: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def to_move(self) -> str: ...
    @property
    def position(self) -> str: ...
    @property
    def ply_count(self) -> int: ...
    def history(self) -> list[Move]: ...
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: object) -> Game: ...
    def planes(self, to_move: bool = False) -> npt.NDArray[np.uint8]:
        """(planes, height, width): piece kinds, regions, and with ``to_move`` the side-to-move
        plane. ``ImportError`` without numpy."""
    def plane_names(self, to_move: bool = False) -> list[str]: ...
    def legal_action_mask(self) -> npt.NDArray[np.int8]: ...
    def legal_actions(self) -> list[int]: ...
    def play_action(self, action: int) -> int:
        """Plays an action number; returns how many pieces it captured. An int that is no legal
        action (out of range too) raises ``IllegalMoveError``, a non-int ``TypeError``."""
    def best(
        self, time_ms: Optional[int] = None, depth: Optional[int] = None, threads: int = 1
    ) -> SearchResult:
        """``depth`` 1 to 100; ``threads`` at least 1, at most the cores."""
    def board(self) -> str: ...

def bundled() -> list[str]: ...
def selfplay(
    variant: Union[str, Variant],
    games: int = 20,
    *,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    openings: int = 4,
    opening_moves: str = "any",
    seed: int = 1,
    cap: int = 400,
    threads: int = 1,
    resign: Optional[tuple[int, int]] = None,
    weights: Optional[str] = None,
    off: Union[None, str, Sequence[str]] = None,
    on: Union[None, str, Sequence[str]] = None,
) -> dict:
    """Computer against computer; the keys and figures of ``tafl selfplay --json``
    (``resign=(score, moves)`` is ``--resign SCORE,MOVES``, ``weights=`` is ``--weights``:
    ``None`` or ``"rules"`` for the weights the rules choose, a profile, ``"hand"`` or a file;
    ``off=`` and ``on=`` are ``--off`` and ``--on``: search techniques' names, a list or a
    comma-separated string)."""
def selfplay_games(
    variant: Union[str, Variant],
    first: int,
    count: int,
    *,
    seed: int = 1,
    openings: int = 4,
    opening_moves: str = "any",
    cap: int = 400,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    resign: Optional[tuple[int, int]] = None,
    weights: Optional[str] = None,
    off: Union[None, str, Sequence[str]] = None,
    on: Union[None, str, Sequence[str]] = None,
) -> list[tuple[str, str, int]]:
    """Games first..first+count of a selfplay run: (status, reason, plies) each."""
def techniques(
    off: Union[None, str, Sequence[str]] = None, on: Union[None, str, Sequence[str]] = None
) -> tuple[list[str], list[str]]:
    """``off=`` and ``on=`` read as every run reads them, each name checked (``ValueError``
    listing the known ones): the two lists the results report."""
def ladder(rungs: list[tuple[int, list[tuple[str, str, int]]]]) -> dict:
    """The balance ladder of ``tafl balance --json`` from games already played."""
def evaluation(variant: Union[str, Variant]) -> str:
    """The weights profile the variant's rules choose for the computer player (``weights=``)."""
def playouts(
    variant: Union[str, Variant], games: int, *, seed: int = 1, cap: int = 500, threads: int = 1
) -> dict:
    """Uniformly random games; the keys of ``tafl playouts``."""
def wilson(wins: int, games: int) -> tuple[float, float, float]:
    """(rate, low, high): the 95% Wilson score interval."""
