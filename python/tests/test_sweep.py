"""Balance sweeps on a local Ray with 2 workers: linted changes, reproducible tables, the CLI."""

import subprocess
import sys

import pytest

pytest.importorskip("ray")
pytest.importorskip("pandas")

import tafl  # noqa: E402
from tafl.sweep import variants  # noqa: E402

CHANGES = {
    "king unarmed": ("the king is armed", "the king is unarmed"),
    "edge escape": {
        "replace": "defenders win when the king reaches a corner",
        "with": "defenders win when the king reaches the edge",
    },
}


def test_seeded_sweep_gives_the_same_table_twice(local_ray):
    first = tafl.sweep("brandubh", CHANGES, games=20, depth=1, seed=3, games_per_task=5)
    second = tafl.sweep("brandubh", CHANGES, games=20, depth=1, seed=3, games_per_task=7)
    assert list(first.index) == ["base", "king unarmed", "edge escape"]
    columns = [c for c in first.columns if c != "seconds"]
    assert first[columns].equals(second[columns])
    assert (first["games"] == 20).all()
    assert (first["attackers_win"] + first["defenders_win"] + first["draw"] == 20).all()
    for side in ("attackers", "defenders"):
        assert (first[f"{side}_low"] <= first[side]).all() and (first[side] <= first[f"{side}_high"]).all()
    # The base row is what selfplay (the same games, in one process, from the same plausible
    # openings) counts.
    alone = tafl.selfplay("brandubh", 20, depth=1, seed=3, opening_moves="plausible")
    assert first.loc["base", "attackers_win"] == alone["attackers_win"]
    assert first.loc["base", "defenders_win"] == alone["defenders_win"]
    # An edge escape is far easier than a corner escape: the defenders must do better.
    assert first.loc["edge escape", "defenders_win"] > first.loc["base", "defenders_win"]
    # Every row is played by the base's player, though the edge escape's own rules would
    # choose other weights.
    assert (first["evaluation"] == "small-corners").all()
    assert (first["opening_moves"] == "plausible").all()
    assert (first["off"] == "").all() and (first["on"] == "").all()
    edge = tafl.Variant.from_text(variants("brandubh", CHANGES)["edge escape"], "edge escape")
    assert tafl.evaluation(edge) == "small-edge"


def test_a_bad_weights_name_is_refused_before_any_task():
    with pytest.raises(ValueError, match="cannot read weights file"):
        tafl.sweep("brandubh", CHANGES, games=2, depth=1, weights="no-such-profile")


def test_changes_are_linted_before_any_game():
    with pytest.raises(tafl.LintError, match="purple") as caught:
        variants("brandubh", {"purple": ("the king is armed", "the king is purple")})
    assert any(d.severity == "error" for d in caught.value.diagnostics)
    with pytest.raises(ValueError, match="does not occur"):
        variants("brandubh", {"missing": ("the queen is armed", "the queen is unarmed")})
    with pytest.raises(ValueError, match="unique"):
        variants("brandubh", [{"name": "base", "add": "the king is unarmed"}])


def test_sweep_from_a_spec_file(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'base = "brandubh"\ngames = 4\ndepth = 1\ngames_per_task = 2\nworkers = 2\n'
        '[[change]]\nname = "king unarmed"\nreplace = "the king is armed"\nwith = "the king is unarmed"\n'
    )
    csv, png = tmp_path / "table.csv", tmp_path / "chart.png"
    done = subprocess.run(
        [sys.executable, "-m", "tafl.sweep", str(spec), "--csv", str(csv), "--chart", str(png)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "king unarmed" in done.stdout and "base" in done.stdout
    assert csv.read_text().splitlines()[0].startswith("variant,games,attackers_win")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    spec.write_text('base = "brandubh"\n[[change]]\nname = "bad"\nadd = "the king is purple"\n')
    bad = subprocess.run([sys.executable, "-m", "tafl.sweep", str(spec)], capture_output=True, text=True)
    assert bad.returncode == 1 and "purple" in bad.stderr
    for text in ("base = [unclosed", 'games = 3\n'):  # not TOML; no base
        spec.write_text(text)
        unreadable = subprocess.run([sys.executable, "-m", "tafl.sweep", str(spec)], capture_output=True, text=True)
        assert unreadable.returncode == 2 and "error" in unreadable.stderr


def test_the_ladder_counts_decisive_games_and_settles_where_the_top_rungs_agree():
    def games(attackers, defenders, capped):
        return (
            [("attackers_win", "king_captured", 30)] * attackers
            + [("defenders_win", "king_escaped", 40)] * defenders
            + [("ongoing", "capped", 300)] * capped
        )

    result = tafl._tafl.ladder([(400, games(40, 60, 0)), (100, games(42, 58, 0)), (25, games(5, 90, 5))])
    assert [r["ms"] for r in result["rungs"]] == [25, 100, 400]
    assert result["settled"] and result["trend"] == "settled"
    assert result["share"] == pytest.approx(0.4)
    low = result["rungs"][0]
    assert (low["draws"], low["capped"], low["share"]) == (5, 5, pytest.approx(5 / 95))
    moving = tafl._tafl.ladder([(25, games(5, 95, 0)), (100, games(40, 60, 0))])
    assert not moving["settled"] and moving["trend"] == "towards_attackers"
    with pytest.raises(ValueError, match="status"):
        tafl._tafl.ladder([(25, [("won", "king_escaped", 3)])])


def test_balance_runs_the_ladder_on_ray(local_ray):
    result = tafl.balance("brandubh", rungs=(10, 5), games=4, games_per_task=2, off="corner-chase")
    assert [r["ms"] for r in result["rungs"]] == [5, 10]
    assert result["openings"] == 4 and result["opening_moves"] == "plausible"
    for rung in result["rungs"]:
        assert rung["games"] == 4
        assert rung["attackers_win"] + rung["defenders_win"] + rung["draws"] == 4
    assert result["share"] == result["rungs"][-1]["share"]
    assert result["evaluation"] == "small-corners" and result["variant"] == "Brandubh"
    assert (result["off"], result["on"]) == (["corner-chase"], [])
    with pytest.raises(ValueError):
        tafl.balance("brandubh", rungs=(0,), games=2)


# Hostile input (issue 47): every setting is checked before Ray starts (on the workers it
# arrived as a RayTaskError), and a LintError crosses Ray as itself.


@pytest.fixture
def no_ray(monkeypatch):
    """Makes starting Ray (or sending a task) a failure: what is refused must be refused first."""
    module = sys.modules["tafl.sweep"]

    def started(*args, **kwargs):
        raise AssertionError("Ray was started")

    monkeypatch.setattr(module, "_ray", started)


def test_every_sweep_setting_is_refused_before_ray(no_ray):
    refused = [
        ({"seed": -1}, "`seed` must be 0 to"),
        ({"depth": 0}, "`depth` must be 1 to 100"),
        ({"time_ms": -3}, "`time_ms` must be 0 to"),
        ({"budget": {"nodes": 5}}, "knows only 'depth' and 'time_ms', not 'nodes'"),
        ({"budget": {"depth": 2}, "time_ms": 5}, "not both"),
        ({"openings": -1}, "`openings`"),
        ({"opening_moves": "clever"}, 'opening_moves="clever"'),
        ({"cap": 2**40}, "`cap`"),
        ({"games": 0}, "`games` must be 1 to"),
        ({"games_per_task": 0}, "`games_per_task`"),
        ({"workers": 0}, "`workers` must be at least 1"),
        ({"weights": "no-such-profile"}, "cannot read weights file"),
        ({"off": "corner-chase,fast"}, "unknown search technique `fast`"),
    ]
    for bad, message in refused:
        with pytest.raises(ValueError, match=message):
            tafl.sweep("brandubh", CHANGES, **{"games": 2, **bad})
    for bad in ({"games": 2.5}, {"seed": "1"}, {"depth": 2.0}, {"budget": 5}, {"address": 5}, {"on": 5}):
        with pytest.raises(TypeError):
            tafl.sweep("brandubh", CHANGES, **{"games": 2, **bad})
    for changes in (5, "the king is unarmed", {"x": (1, 2)}):
        with pytest.raises(TypeError):
            tafl.sweep("brandubh", changes, games=2)


def test_every_balance_setting_is_refused_before_ray(no_ray):
    refused = [
        ({"seed": -1}, "`seed`"),
        ({"rungs": (0,)}, "`rungs` must be 1 to"),
        ({"rungs": (25, 2**64)}, "`rungs` must be 1 to"),
        ({"rungs": ()}, "at least one budget"),
        ({"resign": (0, 5)}, "`resign score`"),
        ({"games": 0}, "`games`"),
        ({"cap": -1}, "`cap`"),
        ({"opening_moves": "best"}, 'opening_moves="best"'),
        ({"on": ["learned", "deeper"]}, "unknown search technique `deeper`"),
    ]
    for bad, message in refused:
        with pytest.raises(ValueError, match=message):
            tafl.balance("brandubh", **bad)
    for bad in (
        {"rungs": "25"},
        {"rungs": (25.5,)},
        {"rungs": 25},
        {"resign": 3000},
        {"games": "4"},
        {"opening_moves": 4},
        {"off": 1},
    ):
        with pytest.raises(TypeError):
            tafl.balance("brandubh", **bad)


def test_a_lint_error_crosses_ray_as_itself(local_ray):
    from tafl.sweep import run_task

    text = tafl.load("brandubh").text.replace("the king is armed", "the king is purple")
    with pytest.raises(tafl.LintError, match="purple") as caught:
        local_ray.get(local_ray.remote(run_task).remote(text, "purple.tafl", 0, 1, {}))
    errors = [d for d in caught.value.diagnostics if d.severity == "error"]
    assert errors and errors[0].origin == "purple.tafl"
