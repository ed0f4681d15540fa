"""Every reader of Python arguments against hostile values (issue 47): property tests.

Each reader of the package (every function, method and constructor that takes an argument
from Python) gets, one argument at a time, values of every kind: ints in and far out of range,
floats (NaN and infinities too), strings (lone surrogates too), bytes, None, bools, lists,
tuples, numpy scalars, arbitrary objects. The call must either work or refuse with
``TypeError`` or ``ValueError`` (``tafl.IllegalMoveError`` and ``tafl.LintError`` are
``ValueError``; readers of paths may also raise ``OSError``), and a refused call leaves the
game as it was. An ``OverflowError``, a Rust panic (``PanicException``), a ``KeyError`` or an
``AttributeError`` fails the test.

Bounded in time: a fixed number of examples a reader, no deadline, no example database; a
value that is valid but expensive (a thousand games, a depth of 50) is skipped, not played.
"""

import operator
import sys

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tafl  # noqa: E402

pytest.importorskip("pettingzoo")
from tafl.environment import TaflEnv  # noqa: E402
from tafl.gym import TaflGymEnv  # noqa: E402
from tafl.vector import VectorEnv  # noqa: E402

EXAMPLES = settings(max_examples=40, deadline=None, database=None)

EDGES = [0, 1, 2, -1, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**64), 10**30]
INTS = st.one_of(st.integers(min_value=-3, max_value=5), st.integers(), st.sampled_from(EDGES), st.just(10**5000))
TEXT = st.one_of(
    st.text(max_size=30),
    st.text(st.characters(blacklist_categories=()), max_size=8),  # lone surrogates too
    st.sampled_from(["", "e1-e3", "a1a2", "-1", "78.7", "\x00", "\ud800", "brandubh", "/", ".", "z99-a1"]),
)
OTHER = st.one_of(
    st.floats(),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 0.5, 78.7, -0.0]),
    st.binary(max_size=8),
    st.none(),
    st.booleans(),
    st.lists(st.integers(min_value=-2, max_value=3), max_size=3),
    st.tuples(st.integers(min_value=-2, max_value=3), st.integers(min_value=-2, max_value=3)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sampled_from([np.int64(3), np.int64(-1), np.uint64(2**64 - 1), np.float64(2.5), np.bool_(True), np.array([1, 2])]),
    st.builds(object),
    st.complex_numbers(max_magnitude=10),
)
ANYTHING = st.one_of(INTS, TEXT, OTHER)

REFUSALS = (TypeError, ValueError)
PATH_REFUSALS = REFUSALS + (OSError,)


def whole(value):
    """The int ``value`` stands for (as ``operator.index`` reads it), or None."""
    try:
        return operator.index(value)
    except TypeError:
        return None


def cheap(value, most):
    """Skips an int over ``most`` (valid perhaps, but too much work for a property test), and
    None (which asks for the default: a search of two seconds, twenty games)."""
    n = whole(value)
    assume(value is not None and (n is None or n <= most))


def snapshot(game):
    return (game.position, game.to_move, game.ply_count, game.status, [str(m) for m in game.history()])


def refused(call, allowed=REFUSALS):
    """Calls ``call``: it works or raises one of ``allowed``; anything else fails the test."""
    try:
        call()
    except allowed:
        return True
    return False


def game():
    return tafl.Game("brandubh")


# --- the Rust half: one entry a reader and argument, (name, call(value), most or None) ----

SELFPLAY = {"depth": 1, "games": 1, "cap": 40, "openings": 2}
SELFPLAY_GAMES = {"first": 0, "count": 1, "depth": 1, "cap": 40}

RUST_READERS = [
    ("Variant(name_or_path)", lambda v: tafl.Variant(v), None, PATH_REFUSALS),
    ("Variant.bundled(name)", lambda v: tafl.Variant.bundled(v), None, REFUSALS),
    ("Variant.from_file(path)", lambda v: tafl.Variant.from_file(v), None, PATH_REFUSALS),
    ("Variant.from_text(text)", lambda v: tafl.Variant.from_text(v), None, REFUSALS),
    ("Variant.from_text(origin)", lambda v: tafl.Variant.from_text("nonsense", v), None, REFUSALS),
    ("load(name)", lambda v: tafl.load(v), None, PATH_REFUSALS),
    ("Game(variant)", lambda v: tafl.Game(v), None, PATH_REFUSALS),
    ("Game(position)", lambda v: tafl.Game("brandubh", position=v), None, REFUSALS),
    ("Game(to_move)", lambda v: tafl.Game("brandubh", position=game().position, to_move=v), None, REFUSALS),
    ("Move(text)", lambda v: tafl.Move(v), None, REFUSALS),
    ("Variant.action_move(action)", lambda v: tafl.Variant("brandubh").action_move(v), None, REFUSALS),
    ("Variant.move_action(mv)", lambda v: tafl.Variant("brandubh").move_action(v), None, REFUSALS),
    ("Game.planes(to_move)", lambda v: game().planes(to_move=v), None, REFUSALS),
    ("Game.plane_names(to_move)", lambda v: game().plane_names(to_move=v), None, REFUSALS),
    ("Game.best(depth)", lambda v: game().best(depth=v), 2, REFUSALS),
    ("Game.best(time_ms)", lambda v: game().best(time_ms=v), 5, REFUSALS),
    ("Game.best(threads)", lambda v: game().best(depth=1, threads=v), None, REFUSALS),
    ("evaluation(variant)", lambda v: tafl.evaluation(v), None, PATH_REFUSALS),
    ("wilson(wins)", lambda v: tafl.wilson(v, 10), None, REFUSALS),
    ("wilson(games)", lambda v: tafl.wilson(1, v), None, REFUSALS),
    ("playouts(variant)", lambda v: tafl.playouts(v, 1), None, PATH_REFUSALS),
    ("playouts(games)", lambda v: tafl.playouts("brandubh", v), 20, REFUSALS),
    ("playouts(seed)", lambda v: tafl.playouts("brandubh", 2, seed=v), None, REFUSALS),
    ("playouts(cap)", lambda v: tafl.playouts("brandubh", 2, cap=v), None, REFUSALS),
    ("playouts(threads)", lambda v: tafl.playouts("brandubh", 2, threads=v), None, REFUSALS),
    ("_replay(moves)", lambda v: tafl._tafl._replay("brandubh", game().position, "attackers", v), None, REFUSALS),
    ("_replay(to_move)", lambda v: tafl._tafl._replay("brandubh", game().position, v, []), None, REFUSALS),
]
# A budget is read whatever it is; the games it would play are cut to none (`cap=0`, no
# openings), so that `time_ms=2**64 - 1` costs nothing.
NO_PLIES = {"cap": 0, "openings": 0}
for key, most in [("games", 2), ("depth", None), ("time_ms", None), ("openings", None), ("opening_moves", None), ("seed", None),
                  ("cap", None), ("threads", None), ("resign", None), ("weights", None)]:
    base = {**SELFPLAY, **NO_PLIES} if key in ("depth", "time_ms") else SELFPLAY
    RUST_READERS.append((f"selfplay({key})", lambda v, key=key, base=base: tafl.selfplay("brandubh", **{**base, key: v}), most, PATH_REFUSALS))
for key, most in [("first", None), ("count", 2), ("seed", None), ("openings", None), ("opening_moves", None), ("cap", None),
                  ("depth", None), ("time_ms", None), ("resign", None), ("weights", None)]:
    base = {**SELFPLAY_GAMES, **NO_PLIES} if key in ("depth", "time_ms") else SELFPLAY_GAMES
    RUST_READERS.append((f"selfplay_games({key})", lambda v, key=key, base=base: tafl.selfplay_games("brandubh", **{**base, key: v}), most, PATH_REFUSALS))


@pytest.mark.parametrize("name, call, most, allowed", RUST_READERS, ids=[r[0] for r in RUST_READERS])
@EXAMPLES
@given(value=ANYTHING)
def test_rust_readers_refuse_cleanly(name, call, most, allowed, value):
    if most is not None:
        cheap(value, most)
    refused(lambda: call(value), allowed)


@EXAMPLES
@given(value=ANYTHING)
def test_selfplay_games_reads_time_and_depth_together(value):
    # Both at once is refused whatever they are.
    assert refused(lambda: tafl.selfplay_games("brandubh", 0, 0, depth=1, time_ms=value)) or value is None


@EXAMPLES
@given(value=ANYTHING)
def test_a_refused_move_or_action_changes_nothing(value):
    g = game()
    g.play(g.legal_moves()[3])
    before = snapshot(g)
    for play in (g.play, g.play_action):
        if refused(lambda: play(value)):
            assert snapshot(g) == before
        else:
            before = snapshot(g)


@EXAMPLES
@given(
    rungs=st.one_of(
        ANYTHING,
        st.lists(
            st.tuples(
                ANYTHING,
                st.lists(st.tuples(st.sampled_from(["attackers_win", "draw", "ongoing", "won"]), st.text(max_size=4), ANYTHING), max_size=3),
            ),
            max_size=3,
        ),
    )
)
def test_ladder_reads_its_games(rungs):
    refused(lambda: tafl._tafl.ladder(rungs))


def diagnostic_fields():
    lint = pytest.raises(tafl.LintError, tafl.Variant.from_text, "nonsense").value
    d = lint.diagnostics[0]
    return d, [d.code, d.severity, d.message, d.line, d.column, d.span, d.labels, d.help, d.origin]


def result_fields():
    r = game().best(depth=1)
    return r, [r.move, r.score, r.score_text, r.depth, r.nodes, r.pv, r.seconds]


@pytest.mark.parametrize("position", range(9))
@EXAMPLES
@given(value=ANYTHING)
def test_diagnostics_are_rebuilt_only_from_their_fields(position, value):
    original, fields = diagnostic_fields()
    assert tafl.Diagnostic(*fields) == original
    fields[position] = value
    refused(lambda: tafl.Diagnostic(*fields))


@pytest.mark.parametrize("position", range(7))
@EXAMPLES
@given(value=ANYTHING)
def test_search_results_are_rebuilt_only_from_their_fields(position, value):
    original, fields = result_fields()
    assert tafl.SearchResult(*fields) == original
    fields[position] = value
    refused(lambda: tafl.SearchResult(*fields))


# --- the environments ---------------------------------------------------------------------


ENV_READERS = [
    ("TaflEnv(variant)", lambda v: TaflEnv(v), None, PATH_REFUSALS),
    ("TaflEnv(render_mode)", lambda v: TaflEnv("brandubh", render_mode=v), None, REFUSALS),
    ("TaflEnv(max_plies)", lambda v: TaflEnv("brandubh", max_plies=v), None, REFUSALS),
    ("TaflEnv.reset(seed)", lambda v: TaflEnv("brandubh").reset(seed=v), None, REFUSALS),
    ("tafl.env(max_plies)", lambda v: tafl.env("brandubh", max_plies=v), None, REFUSALS),
    ("TaflGymEnv(variant)", lambda v: TaflGymEnv(v, opponent_depth=1), None, PATH_REFUSALS),
    ("TaflGymEnv(play_as)", lambda v: TaflGymEnv("brandubh", play_as=v, opponent_depth=1), None, REFUSALS),
    ("TaflGymEnv(opponent_depth)", lambda v: TaflGymEnv("brandubh", opponent_depth=v), None, REFUSALS),
    ("TaflGymEnv(opponent_time_ms)", lambda v: TaflGymEnv("brandubh", opponent_time_ms=v), None, REFUSALS),
    ("TaflGymEnv(max_plies)", lambda v: TaflGymEnv("brandubh", opponent_depth=1, max_plies=v), None, REFUSALS),
    ("TaflGymEnv(render_mode)", lambda v: TaflGymEnv("brandubh", opponent_depth=1, render_mode=v), None, REFUSALS),
    ("TaflGymEnv(illegal)", lambda v: TaflGymEnv("brandubh", opponent_depth=1, illegal=v), None, REFUSALS),
    ("TaflGymEnv(openings)", lambda v: TaflGymEnv("brandubh", opponent_depth=1, openings=v), 8, REFUSALS),
    ("TaflGymEnv.reset(seed)", lambda v: TaflGymEnv("brandubh", opponent_depth=1).reset(seed=v), None, REFUSALS),
    ("VectorEnv(variant)", lambda v: VectorEnv(v, num_envs=2), None, PATH_REFUSALS),
    ("VectorEnv(num_envs)", lambda v: VectorEnv("brandubh", num_envs=v), 64, REFUSALS),
    ("VectorEnv(seed)", lambda v: VectorEnv("brandubh", num_envs=2, seed=v), None, REFUSALS),
    ("VectorEnv(openings)", lambda v: VectorEnv("brandubh", num_envs=2, openings=v).reset(), 8, REFUSALS),
    ("VectorEnv(max_plies)", lambda v: VectorEnv("brandubh", num_envs=2, max_plies=v), None, REFUSALS),
    ("VectorEnv.reset(seed)", lambda v: VectorEnv("brandubh", num_envs=2).reset(seed=v), None, REFUSALS),
]


@pytest.mark.parametrize("name, call, most, allowed", ENV_READERS, ids=[r[0] for r in ENV_READERS])
@EXAMPLES
@given(value=ANYTHING)
def test_environment_readers_refuse_cleanly(name, call, most, allowed, value):
    if most is not None:
        cheap(value, most)
    refused(lambda: call(value), allowed)


@EXAMPLES
@given(action=ANYTHING)
def test_environment_steps_read_only_actions(action):
    env = TaflEnv("brandubh")
    env.reset()
    before = snapshot(env.game)
    if refused(lambda: env.step(action)):
        assert snapshot(env.game) == before and env.agent_selection == env.game.to_move
    for illegal in ("lose", "raise"):
        gym = TaflGymEnv("brandubh", opponent_depth=1, illegal=illegal)
        gym.reset(seed=0)
        before = snapshot(gym.game)
        if refused(lambda: gym.step(action)) or gym.illegal_played:
            assert snapshot(gym.game) == before
        if whole(action) is not None and not 0 <= whole(action) < gym.variant.action_count and illegal == "lose":
            assert gym.illegal_played, "an int out of range is an illegal action: a loss"


@EXAMPLES
@given(actions=st.one_of(ANYTHING, st.lists(ANYTHING, min_size=0, max_size=3)))
def test_vector_steps_read_only_actions(actions):
    env = VectorEnv("brandubh", num_envs=2, seed=0)
    env.reset()
    if refused(lambda: env.step(actions)):
        assert env.history(0) == [] and env.history(1) == []


# --- sweeps: everything is read before Ray; reaching Ray counts as accepted ----------------


class RayReached(Exception):
    pass


@pytest.fixture
def no_ray(monkeypatch):
    def reached(*args, **kwargs):
        raise RayReached

    monkeypatch.setattr(sys.modules["tafl.sweep"], "_ray", reached)


CHANGES = {"king unarmed": ("the king is armed", "the king is unarmed")}
SWEEP_KEYS = ["games", "depth", "time_ms", "budget", "openings", "opening_moves", "seed", "cap", "games_per_task", "workers", "address", "weights"]
BALANCE_KEYS = ["rungs", "games", "openings", "opening_moves", "seed", "cap", "resign", "weights", "games_per_task", "workers", "address"]


@pytest.mark.parametrize("key", SWEEP_KEYS)
@settings(max_examples=25, deadline=None, database=None, suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
@given(value=st.one_of(ANYTHING, st.dictionaries(st.sampled_from(["depth", "time_ms", "nodes"]), ANYTHING, max_size=2)))
def test_sweep_reads_every_setting_before_ray(no_ray, key, value):
    try:
        tafl.sweep("brandubh", CHANGES, **{"games": 2, "depth": 1, key: value})
    except (RayReached, TypeError, ValueError, OSError):
        pass


@pytest.mark.parametrize("key", BALANCE_KEYS)
@settings(max_examples=25, deadline=None, database=None, suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
@given(value=st.one_of(ANYTHING, st.lists(ANYTHING, max_size=3)))
def test_balance_reads_every_setting_before_ray(no_ray, key, value):
    try:
        tafl.balance("brandubh", **{"games": 2, key: value})
    except (RayReached, TypeError, ValueError, OSError):
        pass


@settings(max_examples=40, deadline=None, database=None)
@given(changes=st.one_of(
    ANYTHING,
    st.dictionaries(st.text(max_size=5), st.one_of(ANYTHING, st.tuples(ANYTHING, ANYTHING)), max_size=2),
    st.lists(st.dictionaries(st.sampled_from(["name", "add", "remove", "replace", "with"]), ANYTHING, max_size=3), max_size=2),
))
def test_sweep_changes_are_read_before_any_game(changes):
    from tafl.sweep import variants

    refused(lambda: variants("brandubh", changes))
