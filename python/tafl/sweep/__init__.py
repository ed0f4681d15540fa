"""Balance sweeps: how rule changes move a variant's balance, with games spread over Ray.

>>> import tafl
>>> table = tafl.sweep("brandubh", {
...     "king unarmed": ("the king is armed", "the king is unarmed"),
... }, games=100, depth=2)

Each change is a text edit of the base variant's file: ``(old, new)`` or
``{"replace": old, "with": new}`` replaces the one clause ``old`` (it must occur exactly once),
a plain string or ``{"add": clause}`` adds a clause, ``{"remove": clause}`` removes one. Every
edited text is linted before any game is played: a change with errors raises ``tafl.LintError``
naming the change. The base variant is always the first row (``"base"``).

The games (computer against computer, exactly as ``tafl selfplay``: ``openings`` seeded random
plies, drawn by default as ``tafl compare`` and ``tafl balance`` draw them, among the moves a
shallow search scores within half a soldier of the best (``opening_moves="any"``: among all legal
moves), then the search for both sides) are cut into tasks of ``games_per_task`` games; each task
runs in Rust with the GIL released, on a Ray worker. Game ``i`` of a variant is the same game
whichever worker plays it, so with a ``depth`` budget a seed gives the same table every time.

The result is a pandas DataFrame, one row a variant, with the win counts and 95% Wilson
intervals; ``chart(table, "sweep.png")`` draws it. ``python -m tafl.sweep spec.toml`` runs a sweep
from a file (docs/python.md gives its format).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from .._args import optional_whole, text, whole
from .._tafl import MAX_GAMES, LintError, Variant, evaluation, ladder, selfplay_games, techniques, wilson

__all__ = ["Change", "apply_change", "chart", "run_task", "sweep", "variants"]

#: Search techniques turned off or on (``off=``, ``on=``): none, a list of names, or a
#: comma-separated string, as ``tafl selfplay --off/--on`` takes them.
Techniques = Union[None, str, Sequence[str]]


@dataclass(frozen=True)
class Change:
    """One text edit of a variant file: replace ``old`` by ``new``, add ``new`` (``old`` is
    None) or remove ``old`` (``new`` is None)."""

    name: str
    old: Optional[str]
    new: Optional[str]

    @staticmethod
    def read(name: str, spec: Any) -> "Change":
        """A change from its short forms: ``(old, new)``, ``"clause"`` (added), or a dict with
        ``replace`` and ``with``, ``add``, or ``remove``."""
        if isinstance(spec, Change):
            return spec

        def clause(value: Any) -> str:
            if not isinstance(value, str):
                raise TypeError(f"change {name!r}: a clause must be a str, not {type(value).__name__}")
            return value

        if isinstance(spec, str):
            return Change(name, None, spec)
        if isinstance(spec, (tuple, list)) and len(spec) == 2:
            return Change(name, clause(spec[0]), clause(spec[1]))
        if isinstance(spec, Mapping):
            keys = set(spec) - {"name"}
            if keys == {"replace", "with"}:
                return Change(name, clause(spec["replace"]), clause(spec["with"]))
            if keys == {"add"}:
                return Change(name, None, clause(spec["add"]))
            if keys == {"remove"}:
                return Change(name, clause(spec["remove"]), None)
        raise ValueError(
            f"change {name!r}: write (old, new), a clause to add, or a dict with "
            f"replace+with, add or remove; got {spec!r}"
        )


def apply_change(text: str, change: Change) -> str:
    """``text`` with ``change`` made. Raises ``ValueError`` when the clause to replace or remove
    does not occur exactly once."""
    if change.old is None:
        return text.rstrip("\n") + "\n" + (change.new or "") + "\n"
    found = text.count(change.old)
    if found != 1:
        where = "does not occur" if found == 0 else f"occurs {found} times"
        raise ValueError(f"change {change.name!r}: {change.old!r} {where} in the base variant")
    return text.replace(change.old, change.new or "", 1)


def _changes(changes: Union[Mapping[str, Any], Sequence[Any]]) -> list[Change]:
    if isinstance(changes, Mapping):
        listed = [Change.read(str(name), spec) for name, spec in changes.items()]
    elif isinstance(changes, (list, tuple)):
        listed = []
        for i, spec in enumerate(changes):
            name = spec.get("name") if isinstance(spec, Mapping) else getattr(spec, "name", None)
            listed.append(Change.read(str(name or f"change {i + 1}"), spec))
    else:
        raise TypeError(f"changes are a dict by name or a list, not {type(changes).__name__}")
    names = [c.name for c in listed]
    if "base" in names or len(set(names)) != len(names):
        raise ValueError(f"change names must be unique and not 'base': {names}")
    return listed


def variants(base_variant: Union[str, Variant], changes) -> dict[str, str]:
    """The texts to play, by row name: ``base`` first, then each change, each linted (a change
    with errors raises ``LintError``, its message naming the change)."""
    base = base_variant if isinstance(base_variant, Variant) else Variant(base_variant)
    texts = {"base": base.text}
    for change in _changes(changes):
        text = apply_change(base.text, change)
        try:
            Variant.from_text(text, f"{base.name} + {change.name}")
        except LintError as error:
            named = LintError(f"change {change.name!r} does not lint: {error}")
            named.diagnostics = error.diagnostics
            raise named from error
        texts[change.name] = text
    return texts


def run_task(text: str, origin: str, first: int, count: int, settings: dict) -> list[tuple]:
    """Games ``first .. first+count`` of one variant's text: ``[(status, reason, plies), ...]``.
    This is what one Ray task runs (in Rust, without the GIL)."""
    variant = Variant.from_text(text, origin)
    return selfplay_games(variant, first, count, **settings)


def _where(games: Any, games_per_task: Any, workers: Any, address: Any) -> tuple[int, int, Optional[int], Optional[str]]:
    """The run's shape, checked before Ray starts: ``games`` (1 to ``MAX_GAMES``, the most a
    variant's results held at once), ``games_per_task`` (the same), ``workers`` (at least 1: a
    local Ray of no CPUs would never run a task) and ``address`` (a string)."""
    games = whole(games, "games", 1, MAX_GAMES)
    games_per_task = whole(games_per_task, "games_per_task", 1, MAX_GAMES)
    workers = optional_whole(workers, "workers", 1)
    if address is not None:
        text(address, "address")
    return games, games_per_task, workers, address


#: What a ``budget`` may say.
BUDGET_KEYS = ("depth", "time_ms")


def _budget(budget: Any, depth: Any, time_ms: Any) -> tuple[Any, Any]:
    """The depth and time of ``budget`` (a dict of ``depth`` or ``time_ms``) over those given
    apart; depth 2 when neither is given. An unknown key is refused, not ignored."""
    if budget is not None:
        if not isinstance(budget, Mapping):
            raise TypeError(f"`budget` must be a dict like {{'depth': 2}}, not {type(budget).__name__}")
        unknown = sorted(repr(key) for key in budget if key not in BUDGET_KEYS)
        if unknown:
            raise ValueError(f"`budget` knows only 'depth' and 'time_ms', not {', '.join(unknown)}")
        depth, time_ms = budget.get("depth", depth), budget.get("time_ms", time_ms)
    if depth is None and time_ms is None:
        depth = 2
    return depth, time_ms


def _ray(address: Optional[str], workers: Optional[int]):
    import ray

    if not ray.is_initialized():
        if address is None:
            # A local Ray with `workers` CPUs (None: all of them).
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    return ray


def sweep(
    base_variant: Union[str, Variant],
    changes: Union[Mapping[str, Any], Sequence[Any]],
    games: int = 100,
    *,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    budget: Optional[Mapping[str, int]] = None,
    openings: int = 4,
    opening_moves: str = "plausible",
    seed: int = 1,
    cap: int = 400,
    games_per_task: int = 10,
    workers: Optional[int] = None,
    address: Optional[str] = None,
    weights: Optional[str] = None,
    off: Techniques = None,
    on: Techniques = None,
):
    """Plays ``games`` games of the base variant and of each change; returns a DataFrame.

    The budget of each move is ``depth`` plies or ``time_ms`` milliseconds (or
    ``budget={"depth": 2}``; any other key is refused); with neither, depth 2. Every setting is
    checked before Ray starts (``ValueError`` or ``TypeError`` naming it), none on the workers.
    Ray: a running one is used as it is; otherwise ``ray.init()`` starts a local one with
    ``workers`` CPUs, or joins the cluster at ``address`` (``"auto"``, or
    ``"ray://head:10001"``).

    Columns: ``games``, ``attackers_win``, ``defenders_win``, ``draw`` (``capped`` among them),
    ``attackers``, ``attackers_low``, ``attackers_high`` (the rate with its 95% Wilson interval),
    the same for ``defenders``, ``mean_plies``, ``reasons`` (ending: count) and ``seconds``
    (the sweep's wall time, the same on every row), ``evaluation`` (the weights every row was
    played with), ``off`` and ``on`` (the search techniques turned off and on, comma-separated;
    empty for the defaults), ``opening_moves`` (how the opening plies were drawn). Index:
    ``base`` then the change names.

    Every row is played by the same computer player: ``weights`` (a profile's name, ``"hand"``
    or a weights file, as ``tafl selfplay --weights``), by default the profile the base
    variant's rules choose (``tafl.evaluation(base)``), so that a row's difference from the base
    is its rule change's and not a change of player. ``off`` and ``on`` turn search techniques
    off and on for every row, as ``tafl selfplay --off/--on`` (a list of names or a
    comma-separated string, ``"corner-chase"``).
    """
    import pandas as pd

    games, games_per_task, workers, address = _where(games, games_per_task, workers, address)
    depth, time_ms = _budget(budget, depth, time_ms)
    texts = variants(base_variant, changes)
    base = Variant.from_text(texts["base"], "base")
    if weights is None or weights == "rules":
        weights = evaluation(base)
    # Every setting is refused here, before Ray starts, rather than on every worker (where it
    # arrived as a RayTaskError): no game is played.
    selfplay_games(
        base, 0, 0, seed=seed, openings=openings, opening_moves=opening_moves, cap=cap, depth=depth, time_ms=time_ms,
        weights=weights, off=off, on=on,
    )
    settings = {
        "seed": seed,
        "openings": openings,
        "opening_moves": opening_moves,
        "cap": cap,
        "depth": depth,
        "time_ms": time_ms,
        "weights": weights,
        "off": off,
        "on": on,
    }
    ray = _ray(address, workers)
    task = ray.remote(num_cpus=1)(run_task)
    started = time.perf_counter()
    pending = {
        name: [
            task.remote(text, name, first, min(games_per_task, games - first), settings)
            for first in range(0, games, games_per_task)
        ]
        for name, text in texts.items()
    }
    rows = []
    for name, refs in pending.items():
        played = [game for chunk in ray.get(refs) for game in chunk]
        rows.append(_row(name, played))
    seconds = time.perf_counter() - started
    table = pd.DataFrame(rows).set_index("variant")
    table["seconds"] = seconds
    table["evaluation"] = weights
    turned_off, turned_on = techniques(off, on)
    table["off"] = ",".join(turned_off)
    table["on"] = ",".join(turned_on)
    table["opening_moves"] = opening_moves
    return table


def balance(
    variant: Union[str, Variant],
    rungs: Sequence[int] = (25, 100, 400),
    games: int = 20,
    *,
    openings: int = 4,
    opening_moves: str = "plausible",
    seed: int = 1,
    cap: int = 300,
    resign: Optional[tuple[int, int]] = (3000, 5),
    weights: Optional[str] = None,
    off: Techniques = None,
    on: Techniques = None,
    games_per_task: int = 2,
    workers: Optional[int] = None,
    address: Optional[str] = None,
) -> dict:
    """``tafl balance`` on Ray: self-play at each budget of ``rungs`` (milliseconds a move),
    ``games`` games a rung from the same seeded openings, and the ladder's verdict.

    Returns the keys of ``tafl balance --json``: ``rungs`` (``ms``, ``games``,
    ``attackers_win``, ``defenders_win``, ``draws``, ``capped``, ``share``, ``low``, ``high``,
    ``mean_plies``, ``reasons``), ``settled``, ``share`` (the attackers' share of the decisive
    games at the top rung), ``trend``, ``verdict``, and ``variant``, ``evaluation``,
    ``seconds``, ``openings``, ``opening_moves``, ``off`` and ``on`` (lists of the search
    techniques turned off and on). The games are ``tafl balance``'s (the same openings,
    plausible by default, budgets, resignation rule, weights and search techniques: ``off``
    and ``on`` as ``--off``/``--on``, a list of names or a comma-separated string; a time
    budget makes each run's games its own); a cluster (``address=``) plays the long rungs'
    games side by side, ``games_per_task`` to a task.
    """
    games, games_per_task, workers, address = _where(games, games_per_task, workers, address)
    if isinstance(rungs, (str, bytes)) or not isinstance(rungs, Iterable):
        raise TypeError(f"`rungs` must be milliseconds a move, like (25, 100, 400), not {type(rungs).__name__}")
    budgets = sorted({whole(ms, "rungs", 1, 2**64 - 1) for ms in rungs})
    if not budgets:
        raise ValueError("`rungs` must name at least one budget, like (25, 100, 400)")
    base = variant if isinstance(variant, Variant) else Variant(variant)
    if weights is None or weights == "rules":
        weights = evaluation(base)
    # Every setting is checked here, before Ray starts: no game is played.
    selfplay_games(
        base, 0, 0, seed=seed, openings=openings, opening_moves=opening_moves, cap=cap, time_ms=budgets[-1],
        resign=resign, weights=weights, off=off, on=on,
    )
    ray = _ray(address, workers)
    task = ray.remote(num_cpus=1)(run_task)
    started = time.perf_counter()
    pending = {}
    # The longest rung first, so that its games start while the short ones fill the gaps.
    for ms in reversed(budgets):
        settings = {
            "seed": seed,
            "openings": openings,
            "opening_moves": opening_moves,
            "cap": cap,
            "time_ms": ms,
            "resign": resign,
            "weights": weights,
            "off": off,
            "on": on,
        }
        pending[ms] = [
            task.remote(base.text, base.origin, first, min(games_per_task, games - first), settings)
            for first in range(0, games, games_per_task)
        ]
    played = [(ms, [game for chunk in ray.get(refs) for game in chunk]) for ms, refs in pending.items()]
    result = ladder(played)
    turned_off, turned_on = techniques(off, on)
    result.update(
        variant=base.name,
        evaluation=weights,
        openings=openings,
        opening_moves=opening_moves,
        off=turned_off,
        on=turned_on,
        seconds=time.perf_counter() - started,
    )
    return result


def _row(name: str, played: list[tuple]) -> dict:
    games = len(played)
    count = lambda status: sum(1 for p in played if p[0] == status)  # noqa: E731
    attackers, defenders = count("attackers_win"), count("defenders_win")
    a_rate, a_low, a_high = wilson(attackers, games)
    d_rate, d_low, d_high = wilson(defenders, games)
    reasons: dict[str, int] = {}
    for _, reason, _ in played:
        reasons[reason] = reasons.get(reason, 0) + 1
    return {
        "variant": name,
        "games": games,
        "attackers_win": attackers,
        "defenders_win": defenders,
        "draw": count("draw") + count("ongoing"),
        "capped": count("ongoing"),
        "attackers": a_rate,
        "attackers_low": a_low,
        "attackers_high": a_high,
        "defenders": d_rate,
        "defenders_low": d_low,
        "defenders_high": d_high,
        "mean_plies": sum(p[2] for p in played) / games,
        "reasons": dict(sorted(reasons.items())),
    }


def chart(table, path: Optional[str] = None, title: Optional[str] = None):
    """A bar chart of each row's attacker and defender win rates with their 95% intervals
    (matplotlib). Saved to ``path`` when given; returns the figure."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display is needed
    import matplotlib.pyplot as plt
    import numpy as np

    names = list(table.index)
    x = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(max(5, 1.4 * len(names) + 2), 4))
    for offset, side, colour in ((-0.2, "attackers", "#333333"), (0.2, "defenders", "#c8a060")):
        rate = table[side].to_numpy()
        errors = np.vstack([rate - table[f"{side}_low"].to_numpy(), table[f"{side}_high"].to_numpy() - rate])
        ax.bar(x + offset, rate, 0.4, yerr=errors, capsize=4, label=f"{side} win", color=colour)
    ax.set_xticks(x, names, rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% interval)")
    games = int(table["games"].iloc[0])
    ax.set_title(title or f"balance sweep, {games} games a variant")
    ax.legend()
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=100)
    return fig
