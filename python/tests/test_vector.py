"""The vectorised environment (tafl.vector.VectorEnv) against the single-game one."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import tafl  # noqa: E402
from tafl.environment import TaflEnv  # noqa: E402
from tafl.vector import VectorEnv  # noqa: E402

SIDES = ("attackers", "defenders")


@pytest.mark.parametrize("name", ["brandubh", "copenhagen", "berserk", "thrones-and-bones"])
def test_agrees_step_by_step_with_the_single_game_environment(name):
    games, cap = 6, 40
    vec = VectorEnv(name, num_envs=games, seed=3, max_plies=cap)
    obs, info = vec.reset()
    singles = [TaflEnv(name, max_plies=cap) for _ in range(games)]
    for env in singles:
        env.reset()
    ended = 0
    for _ in range(150):
        for i, env in enumerate(singles):
            agent = env.agent_selection
            seen = env.observe(agent)
            assert np.array_equal(obs[i], seen["observation"])
            assert np.array_equal(info["action_mask"][i], seen["action_mask"].astype(bool))
            assert SIDES[info["to_move"][i]] == agent
        actions = vec.sample_actions()
        movers = [env.agent_selection for env in singles]
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for i, env in enumerate(singles):
            env.step(int(actions[i]))
            assert rewards[i] == env.rewards[movers[i]]
            assert terminated[i] == env.terminations[movers[i]]
            assert truncated[i] == env.truncations[movers[i]]
            assert info["_final_obs"][i] == (terminated[i] or truncated[i])
            if info["_final_obs"][i]:
                ended += 1
                assert np.array_equal(info["final_obs"][i], env.observe(movers[i])["observation"])
                winner = env.unwrapped.game.winner
                assert info["winner"][i] == (-1 if winner is None else SIDES.index(winner))
                env.reset()
            else:
                assert info["winner"][i] == -1
    assert ended > 0, "some games ended (at the ply cap at least), so auto-reset was exercised"


@pytest.mark.parametrize("name", ["copenhagen", "thrones-and-bones"])
def test_masks_and_planes_are_those_of_the_game_after_random_openings(name):
    vec = VectorEnv(name, num_envs=5, seed=11, openings=6)
    obs, info = vec.reset()
    for _ in range(20):
        obs, _, _, _, info = vec.step(vec.sample_actions())
    for i in range(vec.num_envs):
        game = tafl.Game(name)
        for move in vec.history(i):
            game.play(move)
        assert np.array_equal(obs[i], game.planes(to_move=True))
        mask = info["action_mask"][i]
        assert np.array_equal(mask, game.legal_action_mask().astype(bool))
        assert sorted(np.flatnonzero(mask)) == game.legal_actions()
        assert SIDES[info["to_move"][i]] == game.to_move


def test_auto_reset_starts_a_new_game_in_the_same_step():
    vec = VectorEnv("brandubh", num_envs=3, seed=0, max_plies=5)
    start, _ = vec.reset()
    start = start.copy()
    for _ in range(4):
        vec.step(vec.sample_actions())
    assert all(len(vec.history(i)) == 4 for i in range(3))
    obs, rewards, terminated, truncated, info = vec.step(vec.sample_actions())
    assert truncated.all() and not terminated.any() and not rewards.any()
    assert info["_final_obs"].all()
    assert not np.array_equal(info["final_obs"], start)
    assert np.array_equal(obs, start)
    assert all(vec.history(i) == [] for i in range(3))


def test_the_same_seed_gives_the_same_games_and_another_seed_others():
    def run(seed):
        vec = VectorEnv("copenhagen", num_envs=4, seed=seed, openings=4)
        vec.reset()
        for _ in range(10):
            vec.step(vec.sample_actions())
        return [vec.history(i) for i in range(4)]

    assert run(7) == run(7)
    assert run(7) != run(8)
    # reset(seed=...) restarts the streams as the constructor's seed does.
    vec = VectorEnv("copenhagen", num_envs=4, seed=8, openings=4)
    vec.reset(seed=7)
    for _ in range(10):
        vec.step(vec.sample_actions())
    assert [vec.history(i) for i in range(4)] == run(7)


def test_an_illegal_action_raises_naming_the_game_and_no_game_moves():
    vec = VectorEnv("copenhagen", num_envs=4, seed=0)
    obs, info = vec.reset()
    before = obs.copy()
    actions = vec.sample_actions()
    actions[2] = np.flatnonzero(~info["action_mask"][2])[0]
    with pytest.raises(tafl.IllegalMoveError, match="game 2: action .* no game moved"):
        vec.step(actions)
    for bad, why in [(-1, "actions are 0 to 4839"), (4840, "the last action is 4839")]:
        actions[2] = bad
        with pytest.raises(tafl.IllegalMoveError, match=why):
            vec.step(actions)
    assert np.array_equal(obs, before)
    assert all(vec.history(i) == [] for i in range(4))
    with pytest.raises(tafl.IllegalMoveError, match="game 0"):
        vec.step(np.full(4, 2**64 - 1, dtype=np.uint64))
    with pytest.raises(ValueError, match="one action a game: 4 games, not 3"):
        vec.step(actions[:3])
    with pytest.raises(TypeError, match="must be ints"):
        vec.step(actions.astype(float))
    with pytest.raises(ValueError, match="one-dimensional"):
        vec.step(actions.reshape(2, 2))
    # The legal actions still play afterwards.
    vec.step(vec.sample_actions())
    assert all(len(vec.history(i)) == 1 for i in range(4))


def test_bad_settings_raise_before_any_game():
    with pytest.raises(ValueError, match="`num_envs` must be 1 to 65536, not 0"):
        VectorEnv("brandubh", num_envs=0)
    with pytest.raises(TypeError, match="`num_envs` must be an int"):
        VectorEnv("brandubh", num_envs=2.5)
    with pytest.raises(ValueError, match="`seed`"):
        VectorEnv("brandubh", num_envs=2, seed=-1)
    with pytest.raises(ValueError, match="`max_plies`"):
        VectorEnv("brandubh", num_envs=2, max_plies=0)
    with pytest.raises(ValueError, match="`openings` must be 0 to 9, not 10"):
        VectorEnv("brandubh", num_envs=2, openings=10, max_plies=10)
    with pytest.raises(ValueError, match="not a bundled variant|no such|cannot"):
        VectorEnv("no-such-variant", num_envs=2)
    vec = VectorEnv("brandubh", num_envs=2)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step([0, 0])
    with pytest.raises(ValueError, match="no game 2"):
        vec.history(2)


def test_it_is_a_gymnasium_vector_environment():
    vec = VectorEnv("brandubh", num_envs=16, seed=0)
    assert isinstance(vec, gymnasium.vector.VectorEnv)
    assert vec.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = vec.reset(seed=1)
    assert vec.observation_space.contains(obs)
    assert vec.single_action_space.n == tafl.Variant("brandubh").action_count
    assert info["action_mask"].dtype == bool and info["action_mask"].shape == (16, 1176)
    assert info["to_move"].dtype == np.int8
    # The arrays are written in place: the same objects at every step.
    obs2, rewards, terminated, truncated, info2 = vec.step(vec.sample_actions())
    assert obs2 is obs and info2["action_mask"] is info["action_mask"]
    assert rewards.dtype == np.float32 and terminated.dtype == bool and truncated.dtype == bool
