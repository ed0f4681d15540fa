"""Datasets for supervised learning: the self-play positions of ``tafl train`` and the games
people played in the corpora (``tests/games/*.csv``), as numpy arrays in the environments'
encoding (docs/python.md, "Datasets").

>>> from tafl import datasets
>>> data = datasets.load_positions("train-brandubh")          # a run's folder, or .npy files
>>> data.planes().shape, data.value.shape                     # (positions, planes, h, w), (positions,)
>>> games = datasets.load_games("tests/games/brandubh.csv", "federation-brandubh")
>>> games.planes.shape, games.action.shape                    # the position before each move, the move

Both give the observation planes of ``Game.planes(to_move=True)`` (the PettingZoo, vector and
OpenSpiel environments' observation) and targets: the game's result and, for the corpora, the
move played as an action number of the same numbering. ``to_pandas()`` gives a table (pandas
is optional, imported only there).
"""

from __future__ import annotations

import json
import pathlib
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional, Union

import numpy as np

from ._tafl import Game, IllegalMoveError, Variant

__all__ = ["Positions", "Games", "load_positions", "load_games", "POSITION_FIELDS"]

#: The fields of a record of ``tafl train``'s ``gen-NNN.npy`` (src/search/train/data.rs).
POSITION_FIELDS = ("board", "to_move", "result", "score", "game", "ply")

PathLike = Union[str, pathlib.Path]


def _variant(variant: Union[str, Variant]) -> Variant:
    return variant if isinstance(variant, Variant) else Variant(variant)


def _region_planes(variant: Variant) -> np.ndarray:
    """The region planes of ``variant`` (the same in every position)."""
    kinds = len(variant.pieces)
    return Game(variant).planes()[kinds:]


@dataclass
class Positions:
    """Self-play positions of ``tafl train``: one entry a position, every array of the same length.

    ``board`` (positions, squares) uint8: one byte a square, square ``rank * width + file``
    from a1, 0 empty, else the piece's kind + 1 (``variant.pieces`` order); ``to_move`` 0 for
    the attackers, 1 for the defenders; ``result`` the game's end for the attackers (1 won, -1
    lost, 0 drawn or cut); ``score`` the mover's search score (hundredths of a soldier, or
    ±(1,000,000 − plies) for a forced result); ``game`` the game's number in its generation;
    ``ply`` the position's ply; ``generation`` the number of the file it came from (``gen-NNN``,
    0 for a file named otherwise).
    """

    variant: Variant
    board: np.ndarray
    to_move: np.ndarray
    result: np.ndarray
    score: np.ndarray
    game: np.ndarray
    ply: np.ndarray
    generation: np.ndarray

    def __len__(self) -> int:
        return len(self.board)

    @property
    def value(self) -> np.ndarray:
        """The result for the side to move, float32: 1 won, 0.5 drawn or cut, 0 lost (the target
        ``tafl train`` fits)."""
        attackers = self.result.astype(np.float32) * 0.5 + 0.5
        return np.where(self.to_move == 0, attackers, 1.0 - attackers).astype(np.float32)

    def planes(self, start: int = 0, stop: Optional[int] = None) -> np.ndarray:
        """The observation planes of positions ``start:stop`` (all by default), uint8 (n, planes,
        height, width), as ``Game.planes(to_move=True)`` gives them: made on demand, since the
        planes take some 8 times the bytes of the boards."""
        v = self.variant
        board = self.board[start:stop]
        kinds, (h, w) = len(v.pieces), (v.height, v.width)
        regions = _region_planes(v)
        out = np.zeros((len(board), kinds + len(regions) + 1, h, w), np.uint8)
        # Square rank * width + file from a1; row 0 of a plane is the top rank.
        squares = board.reshape(len(board), h, w)[:, ::-1, :]
        for kind in range(kinds):
            out[:, kind] = squares == kind + 1
        out[:, kinds:kinds + len(regions)] = regions
        out[:, -1] = (self.to_move[start:stop] == 0)[:, None, None]
        return out

    def to_pandas(self):
        """A pandas DataFrame, one row a position (``board`` as one array a row)."""
        import pandas as pd  # optional: only this method needs it

        table = {name: getattr(self, name) for name in POSITION_FIELDS[1:]}
        table["generation"] = self.generation
        table["value"] = self.value
        frame = pd.DataFrame(table)
        frame.insert(0, "board", list(self.board))
        return frame


def _npy_files(paths: Union[PathLike, Iterable[PathLike]]) -> list[pathlib.Path]:
    if isinstance(paths, (str, pathlib.Path)):
        paths = [paths]
    files = []
    for path in map(pathlib.Path, paths):
        if path.is_dir():
            found = sorted(path.glob("gen-*.npy"))
            if not found:
                raise FileNotFoundError(f"`{path}` holds no gen-NNN.npy positions file")
            files.extend(found)
        else:
            files.append(path)
    return files


def _run_variant(files: list[pathlib.Path]) -> Optional[str]:
    """The variant named by the run.json beside the files, if there is one."""
    for file in files:
        run = file.parent / "run.json"
        if run.is_file():
            return json.loads(run.read_text()).get("variant")
    return None


def load_positions(
    paths: Union[PathLike, Iterable[PathLike]], variant: Union[str, Variant, None] = None
) -> Positions:
    """The positions of ``tafl train`` runs: a run's folder (every ``gen-NNN.npy`` in it), a
    ``.npy`` file, or a list of either. ``variant`` defaults to the one the run's ``run.json``
    names; a file whose boards do not fit the variant's board raises ``ValueError``."""
    files = _npy_files(paths)
    if not files:
        raise ValueError("no positions file given")
    if variant is None:
        variant = _run_variant(files)
        if variant is None:
            raise ValueError("no run.json beside the positions names the variant: pass `variant=`")
    variant = _variant(variant)
    squares = variant.width * variant.height
    parts, generations = [], []
    for file in files:
        array = np.load(file, allow_pickle=False)
        names = array.dtype.names or ()
        if tuple(names) != POSITION_FIELDS:
            raise ValueError(f"`{file}` is not a positions file of tafl train (fields {names})")
        if array.dtype["board"].shape != (squares,):
            raise ValueError(
                f"`{file}` holds boards of {array.dtype['board'].shape[0]} squares; "
                f"{variant.name} has {squares}"
            )
        parts.append(array)
        number = re.fullmatch(r"gen-(\d+)\.npy", file.name)
        generations.append(np.full(len(array), int(number.group(1)) if number else 0, np.uint32))
    records = np.concatenate(parts)
    return Positions(
        variant=variant,
        board=np.ascontiguousarray(records["board"]),
        to_move=records["to_move"].copy(),
        result=records["result"].copy(),
        score=records["score"].copy(),
        game=records["game"].copy(),
        ply=records["ply"].copy(),
        generation=np.concatenate(generations),
    )


@dataclass
class Games:
    """People's games of a corpus as positions, one entry a move played: the position before
    the move (``planes``), the move (``action``, the environments' numbering), and the game's
    result.

    ``game`` the row of the game in the file (from 0, comments and blank lines not counted),
    ``ply`` the move's ply, ``to_move`` 0 attackers, 1 defenders, ``result`` the game's end for
    the attackers as the file writes it (1 won, -1 lost, 0 drawn, unfinished or not written),
    ``finished`` whether the file says who won or that it was drawn. ``outcomes`` is the file's
    outcome word of each game, ``moves`` each game's moves as text, and ``stopped`` maps the
    row of each game cut short to why: a move the variant does not allow there (the positions
    before it are kept).
    """

    variant: Variant
    planes: np.ndarray
    action: np.ndarray
    to_move: np.ndarray
    result: np.ndarray
    finished: np.ndarray
    game: np.ndarray
    ply: np.ndarray
    outcomes: list[str] = field(default_factory=list)
    moves: list[list[str]] = field(default_factory=list)
    stopped: dict[int, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.action)

    @property
    def value(self) -> np.ndarray:
        """The result for the side to move, float32: 1 won, 0.5 drawn or unknown, 0 lost."""
        attackers = self.result.astype(np.float32) * 0.5 + 0.5
        return np.where(self.to_move == 0, attackers, 1.0 - attackers).astype(np.float32)

    def to_pandas(self):
        """A pandas DataFrame, one row a game: ``outcome``, ``plies`` (kept), ``moves``, ``stopped``."""
        import pandas as pd  # optional: only this method needs it

        kept = np.bincount(self.game, minlength=len(self.outcomes))
        return pd.DataFrame(
            {
                "outcome": self.outcomes,
                "plies": kept,
                "moves": [" ".join(m) for m in self.moves],
                "stopped": [self.stopped.get(i) for i in range(len(self.outcomes))],
            }
        )


#: The corpora's outcome words: the attackers' result and whether the game was decided.
_OUTCOMES = {"Black": (1, True), "White": (-1, True), "Draw": (0, True), "Ongoing": (0, False), "": (0, False)}


def load_games(path: PathLike, variant: Union[str, Variant]) -> Games:
    """The games of a corpus file (``tests/games/*.csv``, format in tests/games/README.md:
    ``moves separated by spaces,n,n,outcome``, captures written ``xSQUARE`` after a move) played
    through ``variant`` (``copenhagen`` for copenhagen.csv, ``federation-brandubh`` for
    brandubh.csv). A game stops at ``timeout`` or at a move the variant does not allow there
    (listed in ``stopped``); a line that is not of the format raises ``ValueError`` naming it."""
    variant = _variant(variant)
    planes, action, to_move, result, finished, game_of, ply_of = [], [], [], [], [], [], []
    outcomes, all_moves, stopped = [], [], {}
    text = pathlib.Path(path).read_text()
    for line_number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.rsplit(",", 3)
        if len(fields) != 4 or fields[3].strip() not in _OUTCOMES:
            raise ValueError(f"{path}:{line_number}: not `moves,n,n,outcome`: {line[:60]!r}")
        outcome = fields[3].strip()
        attackers, decided = _OUTCOMES[outcome]
        row = len(outcomes)
        outcomes.append(outcome)
        game = Game(variant)
        moves = []
        for play in fields[0].split():
            if play == "timeout":
                break
            move = play.split("x", 1)[0]
            before = game.planes(to_move=True)
            side = game.to_move
            try:
                game.play(move)
            except IllegalMoveError as e:
                stopped[row] = f"ply {len(moves) + 1}: {e}"
                break
            moves.append(move)
            planes.append(before)
            action.append(variant.move_action(move))
            to_move.append(0 if side == "attackers" else 1)
            result.append(attackers)
            finished.append(decided)
            game_of.append(row)
            ply_of.append(len(moves) - 1)
            if game.is_over:
                break
        all_moves.append(moves)
    kinds = len(Game(variant).plane_names(to_move=True))
    return Games(
        variant=variant,
        planes=np.stack(planes) if planes else np.zeros((0, kinds, variant.height, variant.width), np.uint8),
        action=np.asarray(action, np.int64),
        to_move=np.asarray(to_move, np.uint8),
        result=np.asarray(result, np.int8),
        finished=np.asarray(finished, bool),
        game=np.asarray(game_of, np.int64),
        ply=np.asarray(ply_of, np.uint16),
        outcomes=outcomes,
        moves=all_moves,
        stopped=stopped,
    )
