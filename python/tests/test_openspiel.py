"""tafl.openspiel: the game `tafl` in OpenSpiel, checked by OpenSpiel's own random simulation."""

import importlib.util
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import tafl  # noqa: E402
import tafl.openspiel  # noqa: E402,F401
from conftest import ROOT  # noqa: E402


@pytest.mark.parametrize("name", tafl.bundled())
def test_random_simulation_check_passes(name):
    # OpenSpiel's own check: random games to the end, with clones, serialisation round trips,
    # observation tensors and returns checked at every state.
    game = pyspiel.load_game("tafl", {"variant": name, "max_plies": 200})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_variant_given_as_text_plays():
    text = tafl.Variant("brandubh").text.replace("the king is armed", "the king is unarmed")
    game = pyspiel.load_game("tafl", {"text": text})
    assert game.variant.text == text
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_state_is_the_tafl_game_in_numbers():
    game = pyspiel.load_game("tafl(variant=copenhagen,max_plies=30)")
    assert game.num_distinct_actions() == 4840
    assert game.max_game_length() == 30
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    mirror = tafl.Game("copenhagen")
    while not state.is_terminal():
        player = state.current_player()
        assert ("attackers", "defenders")[player] == mirror.to_move
        assert state.legal_actions() == mirror.legal_actions()
        tensor = np.asarray(state.observation_tensor(player), np.float32)
        assert np.array_equal(tensor.reshape(game.observation_tensor_shape()), mirror.planes(to_move=True))
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        mirror.play_action(action)
        copy = pickle.loads(pickle.dumps(state))
        assert copy.history() == state.history() and str(copy) == str(state)
    assert mirror.ply_count == 30 or mirror.is_over
    expected = {None: [0.0, 0.0], "attackers": [1.0, -1.0], "defenders": [-1.0, 1.0]}[mirror.winner]
    assert state.returns() == expected


def test_an_illegal_action_raises_and_bad_parameters_are_named():
    state = pyspiel.load_game("tafl", {"variant": "brandubh"}).new_initial_state()
    with pytest.raises(Exception, match="illegal|not legal|leaves the board"):
        state.apply_action(0)
    with pytest.raises(Exception, match="no-such"):
        pyspiel.load_game("tafl", {"variant": "no-such-variant"})
    with pytest.raises(Exception, match="max_plies"):
        pyspiel.load_game("tafl", {"variant": "brandubh", "max_plies": 0})


def test_the_mcts_example_plays_a_full_game():
    spec = importlib.util.spec_from_file_location("openspiel_mcts", ROOT / "python/examples/openspiel_mcts.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    lines = []
    state = example.play("brandubh", simulations=20, depth=1, max_plies=60, show=lines.append)
    assert state.is_terminal()
    assert lines[-1].startswith(state.game.status)
    assert len(lines) == len(state.history()) + 1
    assert sum(state.returns()) == 0
