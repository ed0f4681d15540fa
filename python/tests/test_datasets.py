"""tafl.datasets: tafl train's positions files and the corpora's games as arrays."""

import subprocess

import numpy as np
import pytest

import tafl
from conftest import ROOT
from tafl import datasets


def board_of(game):
    """The positions file's board of `game` (square rank * width + file from a1, kind + 1),
    written square by square from the game's planes."""
    v = game.variant
    planes = game.planes()
    board = np.zeros(v.width * v.height, np.uint8)
    for kind in range(len(v.pieces)):
        for rank in range(v.height):
            for file in range(v.width):
                if planes[kind, v.height - 1 - rank, file]:
                    board[rank * v.width + file] = kind + 1
    return board


def test_positions_planes_are_the_games_planes(tmp_path):
    rng = np.random.default_rng(1)
    game = tafl.Game("copenhagen")
    games = []
    for _ in range(30):
        games.append(game.copy())
        game.play_action(int(rng.choice(game.legal_actions())))
    dtype = np.dtype([("board", "u1", (121,)), ("to_move", "u1"), ("result", "i1"), ("score", "<i4"),
                      ("game", "<u4"), ("ply", "<u2")])
    records = np.zeros(len(games), dtype)
    for i, g in enumerate(games):
        records[i] = (board_of(g), 0 if g.to_move == "attackers" else 1, -1, 5, 7, g.ply_count)
    np.save(tmp_path / "gen-003.npy", records)
    data = datasets.load_positions(tmp_path / "gen-003.npy", "copenhagen")
    assert len(data) == 30 and (data.generation == 3).all()
    planes = data.planes()
    for i, g in enumerate(games):
        assert np.array_equal(planes[i], g.planes(to_move=True))
    assert np.array_equal(data.planes(10, 12), planes[10:12])
    # The attackers lost every game: the defenders to move won (1), the attackers lost (0).
    assert np.array_equal(data.value, np.where(data.to_move == 1, 1.0, 0.0))


def test_a_training_run_loads_from_its_folder(cli_program, tmp_path):
    out = tmp_path / "run"
    subprocess.run(
        [str(cli_program), "train", "brandubh", "--only-data", "--games", "4", "--depth", "1",
         "--generations", "1", "--threads", "1", "--out", str(out)],
        check=True, capture_output=True, text=True,
    )
    data = datasets.load_positions(out)  # the variant from run.json
    assert data.variant.name == tafl.Variant("brandubh").name
    assert len(data) > 0 and set(np.unique(data.game)) == {0, 1, 2, 3}
    assert set(np.unique(data.result)) <= {-1, 0, 1}
    planes = data.planes()
    kinds = len(data.variant.pieces)
    assert np.array_equal(planes[:, :kinds].sum(axis=(1, 2, 3)), (data.board > 0).sum(axis=1))
    table = data.to_pandas()
    assert len(table) == len(data) and list(table.columns[:2]) == ["board", "to_move"]
    with pytest.raises(ValueError, match="squares; Copenhagen"):
        datasets.load_positions(out, "copenhagen")
    with pytest.raises(FileNotFoundError, match="no gen-NNN.npy"):
        datasets.load_positions(tmp_path)


def test_corpus_games_replay_to_their_positions_and_moves():
    games = datasets.load_games(ROOT / "tests/games/brandubh.csv", "federation-brandubh")
    assert len(games.outcomes) == 525
    assert games.outcomes.count("White") == 308 and games.outcomes.count("Black") == 208
    assert len(games) == sum(len(m) for m in games.moves) == len(games.planes)
    rng = np.random.default_rng(0)
    for i in rng.choice(len(games), 40, replace=False):
        row, ply = int(games.game[i]), int(games.ply[i])
        game = tafl.Game("federation-brandubh")
        for move in games.moves[row][:ply]:
            game.play(move)
        assert np.array_equal(games.planes[i], game.planes(to_move=True))
        assert tafl.Variant("federation-brandubh").action_move(int(games.action[i])) == tafl.Move(games.moves[row][ply])
        assert games.to_move[i] == (0 if game.to_move == "attackers" else 1)
        word = games.outcomes[row]
        assert games.result[i] == {"Black": 1, "White": -1}.get(word, 0)
        assert games.finished[i] == (word in ("Black", "White", "Draw"))
    assert len(games.to_pandas()) == 525


def test_a_line_out_of_format_is_named(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("# a comment\nd2-d3,0,0,White\nd6-c6 nonsense\n")
    with pytest.raises(ValueError, match="bad.csv:3: not `moves,n,n,outcome`"):
        datasets.load_games(bad, "federation-brandubh")
    bad.write_text("a1-a7,0,0,White\n")
    games = datasets.load_games(bad, "federation-brandubh")
    assert len(games) == 0 and 0 in games.stopped and games.planes.shape == (0, 7, 7, 7)
