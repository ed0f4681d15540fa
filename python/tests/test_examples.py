"""python/examples/corner_network.py: the offline screen of a corner network (docs/strength.md)
reads `tafl learn --samples`, fits `tafl learn`'s own model, and learns what that model cannot."""

import importlib.util
import re
import subprocess

import numpy as np
import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location("corner_network", ROOT / "python/examples/corner_network.py")
corner_network = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corner_network)


def name(file, rank):
    return f"{chr(ord('a') + file)}{rank + 1}"


def closed_corners(count, seed=3):
    """Positions with two attackers beside corners: on b3 and c2 of one corner (the attackers
    win) or of two corners (they lose). Folded onto one corner both are "two attackers on the
    cell one and two squares in", so the cells alone cannot tell them apart."""
    rng = np.random.default_rng(seed)
    # b3 and c2 seen from each corner of an 11x11 board.
    guards = [((1, 2), (2, 1)), ((9, 2), (8, 1)), ((1, 8), (2, 9)), ((9, 8), (8, 9))]
    rows = []
    for game in range(count):
        first = int(rng.integers(4))
        closed = bool(rng.integers(2))
        second = first if closed else (first + 1 + int(rng.integers(3))) % 4
        pieces = [f"a@{name(*guards[first][0])}", f"a@{name(*guards[second][1])}", "k@f6"]
        rows.append({
            "game": str(game), "held_out": "1" if game % 5 == 4 else "0",
            "attackers_won": "1" if closed else "0", "evaluation": "0",
            "width": "11", "height": "11", "pieces": " ".join(pieces),
        })
    return rows


def test_the_network_sees_a_closed_corner_that_the_cells_cannot():
    data = corner_network.encode(closed_corners(600))
    cells = corner_network.Model(data, 0).fit(data, 400, 0.05, 0.001)
    network = corner_network.Model(data, 4).fit(data, 400, 0.01, 0.0001)
    cells_loss, cells_called = cells.score(data)
    network_loss, network_called = network.score(data)
    assert cells_loss > 0.65, "the cells know only the coin's odds"
    assert network_called > 0.95 and network_loss < 0.2, (network_loss, network_called)


def test_the_cells_are_tafl_learns_own_model(cli_program, tmp_path):
    samples = tmp_path / "samples.csv"
    out = subprocess.run(
        [str(cli_program), "learn", "federation-brandubh", "--records", str(ROOT / "tests/games/brandubh.csv"),
         "--samples", str(samples)],
        check=True, capture_output=True, text=True,
    ).stdout
    fitted, held = map(int, re.search(r"(\d+) positions fitted, (\d+) held out", out).groups())
    loss = float(re.search(r"held-out log-loss ([0-9.]+)", out).group(1))
    data = corner_network.read(str(samples))
    assert (int((~data.held_out).sum()), int(data.held_out.sum())) == (fitted, held)
    model = corner_network.Model(data, 0).fit(data, 400, 0.05, 0.001)
    assert model.score(data)[0] == pytest.approx(loss, abs=2e-4)
