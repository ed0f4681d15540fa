"""tafl: any tafl (hnefatafl, tablut, brandubh, ...) variant from Python.

The rules are data: a variant is a text file (bundled ones by name, see ``tafl.bundled()``).

>>> import tafl
>>> g = tafl.Game("copenhagen")
>>> g.play("d1-d3")            # a move as text (or a tafl.Move); returns the squares captured
[]
>>> g.to_move
'defenders'

- ``Variant``, ``Game``, ``Move``, ``selfplay``, ``playouts``: the game itself (Rust, ``tafl._tafl``).
- ``tafl.env(variant)``: a PettingZoo AEC environment (``tafl.env`` module); ``tafl.gym``: a
  Gymnasium single-agent wrapper against the computer.
- ``tafl.VectorEnv(variant, num_envs=1024)``: many games stepped together in Rust, a Gymnasium
  vector environment (``tafl.vector`` module).
- ``tafl.openspiel``: importing it registers the game ``tafl`` with OpenSpiel (pyspiel).
- ``tafl.datasets``: ``tafl train``'s positions and the corpora's games as arrays.
- ``tafl.sweep(...)``: balance sweeps of rule changes on Ray (``tafl.sweep`` module);
  ``tafl.balance(...)``: ``tafl balance``'s ladder of budgets, its games on Ray.

docs/python.md in the repository explains all of it.
"""

from ._tafl import (
    Diagnostic,
    Game,
    IllegalMoveError,
    LintError,
    Move,
    SearchResult,
    Variant,
    bundled,
    evaluation,
    playouts,
    selfplay,
    selfplay_games,
    wilson,
)

__all__ = [
    "Diagnostic",
    "Game",
    "IllegalMoveError",
    "LintError",
    "Move",
    "SearchResult",
    "Variant",
    "VectorEnv",
    "balance",
    "bundled",
    "env",
    "evaluation",
    "load",
    "playouts",
    "selfplay",
    "selfplay_games",
    "sweep",
    "wilson",
]


def load(name_or_path: str) -> Variant:
    """A bundled variant by name, or else a variant file by path (as ``VARIANT`` on the command line)."""
    return Variant(name_or_path)


def env(variant="copenhagen", **kwargs):
    """A PettingZoo AEC environment for ``variant`` (a name, path or ``Variant``); see ``tafl.environment``."""
    from .environment import env as make  # imported late: pettingzoo is an optional dependency

    return make(variant, **kwargs)


def __getattr__(name):
    # tafl.VectorEnv is looked up on first use: gymnasium is an optional dependency.
    if name == "VectorEnv":
        from .vector import VectorEnv

        return VectorEnv
    raise AttributeError(f"module 'tafl' has no attribute {name!r}")


# The package tafl.sweep imports ray and pandas only when a sweep runs. Importing it binds the
# name `sweep` here to the package first; the `from` import then rebinds it to the function, so
# `tafl.sweep(...)` calls the function and `python -m tafl.sweep` still finds the package.
from .sweep import balance, sweep  # noqa: E402
