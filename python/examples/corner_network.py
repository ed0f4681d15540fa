"""Does a small network over each corner's pieces predict who wins better than the learned cells?

The offline screen of docs/strength.md ("A hidden layer, screened offline"), reproducible:

    tafl learn copenhagen --records tests/games/copenhagen.csv --samples samples.csv
    python python/examples/corner_network.py samples.csv

It reads the positions `tafl learn --samples` writes (each labelled by who won its game, every
fifth game held out) and fits two logistic models of the winner by full-batch Adam:

- **cells**: the model of `src/search/learned.rs`: the evaluation's score, and each piece's role
  and square folded onto its nearest corner (distance to the nearer edge, capped at 4, and to
  the farther, capped at 6);
- **cells + corner network**: the same, plus for each of the four corners a hidden layer of ReLU
  units over the pieces within its `region` x `region` square (role x square, folded on the
  corner's diagonal), the four corners sharing their weights and their outputs summed. A unit
  can say "this corner is closed by two attackers", which the folded cells cannot.

It prints each model's held-out log-loss, the share of winners it calls, and its training
log-loss. Only numpy is needed.
"""

from __future__ import annotations

import argparse
import csv
from dataclasses import dataclass

import numpy as np

NEAR, FAR = 5, 7
ROLES = "adk"


@dataclass
class Data:
    """Encoded positions: `cells` (n, 3 * NEAR * FAR), `corners` (n, 4, 3 * C), `evaluation`
    (n,), `won` (n,) and `held_out` (n,) as booleans."""

    cells: np.ndarray
    corners: np.ndarray
    evaluation: np.ndarray
    won: np.ndarray
    held_out: np.ndarray


def square(name: str) -> tuple[int, int]:
    """`d1` -> (3, 0): file and rank from zero."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def corner_cells(region: int) -> dict[tuple[int, int], int]:
    """The squares of a corner's region folded on its diagonal: (nearer, farther) -> index."""
    cells: dict[tuple[int, int], int] = {}
    for a in range(region):
        for b in range(a, region):
            cells[(a, b)] = len(cells)
    return cells


def encode(rows: list[dict[str, str]], region: int = 5) -> Data:
    """Encodes `tafl learn --samples` rows."""
    folded = corner_cells(region)
    n = len(rows)
    cells = np.zeros((n, len(ROLES) * NEAR * FAR), np.float32)
    corners = np.zeros((n, 4, len(ROLES) * len(folded)), np.float32)
    for i, row in enumerate(rows):
        width, height = int(row["width"]), int(row["height"])
        for piece in row["pieces"].split():
            role_letter, name = piece.split("@")
            role = ROLES.index(role_letter)
            file, rank = square(name)
            dx, dy = min(file, width - 1 - file), min(rank, height - 1 - rank)
            near, far = min(min(dx, dy), NEAR - 1), min(max(dx, dy), FAR - 1)
            cells[i, role * NEAR * FAR + near * FAR + far] += 1
            for c, (cx, cy) in enumerate([(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]):
                a, b = abs(file - cx), abs(rank - cy)
                if a < region and b < region:
                    corners[i, c, role * len(folded) + folded[(min(a, b), max(a, b))]] += 1
    return Data(
        cells=cells,
        corners=corners,
        evaluation=np.array([float(r["evaluation"]) for r in rows]),
        won=np.array([r["attackers_won"] == "1" for r in rows]),
        held_out=np.array([r["held_out"] == "1" for r in rows]),
    )


def read(path: str, region: int = 5) -> Data:
    with open(path, newline="") as file:
        return encode(list(csv.DictReader(file)), region)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


class Model:
    """A logistic model of the attackers' win: bias, the evaluation's weight, one weight a cell,
    and with `hidden` > 0 a corner network."""

    def __init__(self, data: Data, hidden: int, seed: int = 1):
        rng = np.random.default_rng(seed)
        self.p = {"bias": np.zeros(1), "evaluation": np.zeros(1), "cells": np.zeros(data.cells.shape[1])}
        if hidden:
            inputs = data.corners.shape[2]
            self.p["w1"] = rng.normal(0.0, 0.1, (inputs, hidden))
            self.p["b1"] = np.zeros(hidden)
            self.p["out"] = rng.normal(0.0, 0.1, hidden)
        self.hidden = hidden

    def forward(self, data: Data, rows: np.ndarray):
        z = self.p["bias"] + self.p["evaluation"] * data.evaluation[rows] + data.cells[rows] @ self.p["cells"]
        if not self.hidden:
            return z, None
        before = data.corners[rows] @ self.p["w1"] + self.p["b1"]  # (n, 4, hidden)
        after = np.maximum(before, 0.0)
        return z + (after @ self.p["out"]).sum(axis=1), (before, after)

    def gradients(self, data: Data, rows: np.ndarray, ridge: float) -> dict[str, np.ndarray]:
        z, cache = self.forward(data, rows)
        error = (_sigmoid(z) - data.won[rows]) / len(rows)
        g = {
            "bias": np.array([error.sum()]),
            "evaluation": np.array([(error * data.evaluation[rows]).sum()]),
            "cells": data.cells[rows].T @ error + ridge * self.p["cells"],
        }
        if self.hidden:
            before, after = cache
            g["out"] = np.einsum("n,nch->h", error, after) + ridge * self.p["out"]
            back = error[:, None, None] * self.p["out"][None, None, :] * (before > 0)
            g["w1"] = np.einsum("nci,nch->ih", data.corners[rows], back) + ridge * self.p["w1"]
            g["b1"] = back.sum(axis=(0, 1))
        return g

    def fit(self, data: Data, rounds: int, rate: float, ridge: float) -> "Model":
        """Full-batch Adam on the training positions (those not held out)."""
        rows = np.flatnonzero(~data.held_out)
        m = {k: np.zeros_like(v) for k, v in self.p.items()}
        v = {k: np.zeros_like(v) for k, v in self.p.items()}
        for t in range(1, rounds + 1):
            for k, g in self.gradients(data, rows, ridge).items():
                m[k] = 0.9 * m[k] + 0.1 * g
                v[k] = 0.999 * v[k] + 0.001 * g * g
                self.p[k] -= rate * (m[k] / (1 - 0.9**t)) / (np.sqrt(v[k] / (1 - 0.999**t)) + 1e-8)
        return self

    def score(self, data: Data, held_out: bool = True) -> tuple[float, float]:
        """(log-loss, share of winners called) on the held-out positions, or the training ones."""
        rows = np.flatnonzero(data.held_out == held_out)
        p = np.clip(_sigmoid(self.forward(data, rows)[0]), 1e-9, 1 - 1e-9)
        won = data.won[rows]
        loss = -(won * np.log(p) + (~won) * np.log(1 - p)).mean()
        return float(loss), float(((p > 0.5) == won).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", help="the CSV of `tafl learn --samples`")
    parser.add_argument("--region", type=int, default=5, help="the corner's square, in squares (5)")
    parser.add_argument("--hidden", type=int, default=16, help="hidden units (16)")
    parser.add_argument("--ridge", type=float, default=0.001, help="L2 penalty (0.001)")
    parser.add_argument("--rounds", type=int, default=600, help="rounds of the network's fit (600)")
    args = parser.parse_args()
    data = read(args.samples, args.region)
    print(f"{len(data.won)} positions, {int(data.held_out.sum())} held out")
    print("| model | held-out log-loss | winner called | training log-loss |")
    print("|---|---|---|---|")
    # The cells' fit is `tafl learn`'s: 400 rounds at rate 0.05.
    for label, model in [
        ("cells", Model(data, 0).fit(data, 400, 0.05, 0.001)),
        (
            f"cells + corner network, {args.region}x{args.region}, {args.hidden} hidden, L2 {args.ridge}",
            Model(data, args.hidden).fit(data, args.rounds, 0.01, args.ridge),
        ),
    ]:
        loss, called = model.score(data)
        print(f"| {label} | {loss:.4f} | {100 * called:.1f}% | {model.score(data, held_out=False)[0]:.4f} |")


if __name__ == "__main__":
    main()
