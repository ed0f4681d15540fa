"""The PettingZoo environment for every bundled variant, and the Gymnasium wrapper."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import tafl  # noqa: E402
from tafl.environment import TaflEnv  # noqa: E402
from tafl.gym import TaflGymEnv  # noqa: E402


@pytest.mark.filterwarnings("ignore::UserWarning")  # dict observations, agent names: advice only
@pytest.mark.parametrize("name", tafl.bundled())
def test_api_test_passes(name):
    api_test(tafl.env(name), num_cycles=300)


def play_random(env, seed):
    """A random game through the AEC loop, choosing among the masked actions."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = {a: 0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0, "an agent to move has a legal action"
            action = int(rng.choice(legal))
            steps += 1
        env.step(action)
    return totals, steps, terminated, truncated


@pytest.mark.parametrize("name", ["copenhagen", "brandubh", "berserk", "thrones-and-bones"])
def test_random_masked_games_finish(name):
    for seed in range(3):
        env = tafl.env(name, max_plies=2000)
        totals, steps, terminated, truncated = play_random(env, seed)
        game = env.unwrapped.game
        assert game.is_over and terminated and not truncated
        assert steps == game.ply_count
        if game.winner is None:
            assert totals == {"attackers": 0, "defenders": 0}
        else:
            loser = "defenders" if game.winner == "attackers" else "attackers"
            assert totals == {game.winner: 1, loser: -1}


def test_truncation_at_the_ply_cap():
    env = tafl.env("copenhagen", max_plies=10)
    totals, steps, terminated, truncated = play_random(env, 0)
    assert truncated and not terminated and steps == 10
    assert totals == {"attackers": 0, "defenders": 0}


def test_only_the_side_to_move_has_actions():
    env = TaflEnv("linnaeus")
    env.reset()
    mover = env.agent_selection
    other = "defenders" if mover == "attackers" else "attackers"
    assert env.observe(mover)["action_mask"].sum() == len(env.game.legal_moves())
    assert env.observe(other)["action_mask"].sum() == 0
    with pytest.raises(tafl.IllegalMoveError):
        env.step(int(np.flatnonzero(env.observe(mover)["action_mask"] == 0)[0]))
    assert env.game.ply_count == 0 and env.agent_selection == mover


def test_render_text_and_rgb():
    text = TaflEnv("brandubh", render_mode="ansi")
    text.reset()
    board = text.render()
    # Rank 7: the corners are special squares (+), an attacker stands on d7.
    assert board.splitlines()[0].split() == ["7", "+", ".", ".", "t", ".", ".", "+"]
    assert "attackers to move" in board
    image_env = TaflEnv("brandubh", render_mode="rgb_array")
    image_env.reset()
    image = image_env.render()
    assert image.shape == (7 * 32, 7 * 32, 3) and image.dtype == np.uint8
    # The centre square holds the king: a red mark in the middle of its disc.
    centre = image[3 * 32 + 16, 3 * 32 + 16]
    assert tuple(centre) == (200, 30, 30)
    # An empty ordinary square is board-coloured at its centre.
    assert tuple(image[1 * 32 + 16, 1 * 32 + 16]) == (222, 196, 150)


def test_gym_wrapper_against_the_computer():
    env = TaflGymEnv("brandubh", play_as="defenders", opponent_depth=1, max_plies=60)
    obs, info = env.reset(seed=0)
    assert env.game.ply_count == 5  # four random plies, then the computer (attackers)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(obs)
    assert reward in (-1.0, 0.0, 1.0)
    if terminated:
        assert reward == {"defenders": 1.0, "attackers": -1.0, None: 0.0}[env.game.winner]
    else:
        assert env.game.ply_count >= 60 and reward == 0.0
    with pytest.raises(tafl.IllegalMoveError):
        env.step(0)


def test_gym_illegal_actions_lose_or_raise():
    env = TaflGymEnv("brandubh", play_as="attackers", opponent_depth=1)
    obs, _ = env.reset(seed=0)
    forbidden = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game.position
    obs, reward, terminated, truncated, info = env.step(forbidden)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert env.game.position == before and not obs["action_mask"].any()
    with pytest.raises(tafl.IllegalMoveError):
        env.step(forbidden)
    strict = TaflGymEnv("brandubh", opponent_depth=1, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(tafl.IllegalMoveError, match="leaves the board|illegal"):
        strict.step(forbidden)
    assert strict.game.ply_count == 4  # the random openings, no more


def test_gym_make_and_env_checker():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("tafl/Tafl-v0", variant="brandubh", play_as="defenders", opponent_depth=1)
    obs, info = env.reset(seed=1)
    assert env.unwrapped.game.ply_count == 5 and info["status"] == "ongoing"
    check_env(env.unwrapped, skip_render_check=True)


# Hostile input (issue 47).


def test_env_actions_are_ints_in_range():
    env = TaflEnv("brandubh")
    env.reset()
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    for number in (-1, 2**64, env.variant.action_count):
        with pytest.raises(tafl.IllegalMoveError):
            env.step(number)
    # 78.7 was played as 78, "78" as 78.
    for value in (legal + 0.7, float(legal), str(legal), None):
        with pytest.raises(TypeError, match="`action` must be an int"):
            env.step(value)
    assert env.game.ply_count == 0
    env.step(np.int64(legal))
    assert env.game.ply_count == 1


def test_raw_env_after_the_game_says_so():
    env = TaflEnv("brandubh")
    play_random(env, seed=1)  # steps every agent out with None
    assert env.game.is_over and env.agents == []
    for action in (None, 0):  # was KeyError: 'attackers'
        with pytest.raises(tafl.IllegalMoveError, match="the game is over: call reset"):
            env.step(action)
    env.reset()
    assert env.agents and env.game.ply_count == 0
    with pytest.raises(tafl.IllegalMoveError, match="no game has started: call reset"):
        TaflEnv("brandubh").step(0)
    with pytest.raises(ValueError, match="`max_plies` must be at least 1"):
        TaflEnv("brandubh", max_plies=0)
    with pytest.raises(TypeError):
        TaflEnv("brandubh", max_plies=10.5)


def test_gym_out_of_range_actions_lose_and_others_raise():
    for number in (-1, 2**64):
        env = TaflGymEnv("brandubh", opponent_depth=1)
        env.reset(seed=0)
        obs, reward, terminated, truncated, info = env.step(number)
        assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    env = TaflGymEnv("brandubh", opponent_depth=1)
    env.reset(seed=0)
    before = env.game.position
    for value in (78.7, "78", None):
        with pytest.raises(TypeError):
            env.step(value)
    assert env.game.position == before and not env.illegal_played


def test_gym_opponent_is_checked_when_made_and_a_failing_one_undoes_the_step():
    for bad in ({"opponent_depth": 0}, {"opponent_depth": 101}, {"opponent_time_ms": -3}):
        with pytest.raises(ValueError, match="`opponent_"):
            TaflGymEnv("brandubh", **bad)
    with pytest.raises(TypeError):
        TaflGymEnv("brandubh", opponent_depth=1.5)
    with pytest.raises(tafl.IllegalMoveError, match="no episode has started"):
        TaflGymEnv("brandubh", opponent_depth=1).step(0)
    env = TaflGymEnv("brandubh", play_as="attackers", opponent_depth=1)
    obs, _ = env.reset(seed=3)
    before = (env.game.position, env.game.ply_count)
    env.opponent = {"depth": 0, "time_ms": None}  # the computer's search now fails
    action = int(np.flatnonzero(obs["action_mask"])[0])
    with pytest.raises(ValueError):
        env.step(action)
    assert (env.game.position, env.game.ply_count) == before, "not half a step"
    env.opponent = {"depth": 1, "time_ms": None}
    obs, reward, terminated, truncated, info = env.step(action)
    assert env.game.ply_count == before[1] + 2


def test_gym_seeds_change_the_episodes():
    env = TaflGymEnv("brandubh", play_as="defenders", opponent_depth=1)
    starts = {}
    for seed in range(6):
        env.reset(seed=seed)
        starts[seed] = env.game.position
        assert env.game.to_move == "defenders" and not env.game.is_over
    assert len(set(starts.values())) > 1, "seeds give different episodes"
    env.reset(seed=4)
    assert env.game.position == starts[4], "the same seed gives the same episode"
    fixed = TaflGymEnv("brandubh", play_as="defenders", opponent_depth=1, openings=0)
    assert len({(fixed.reset(seed=s), fixed.game.position)[1] for s in range(3)}) == 1
    with pytest.raises(ValueError, match="`openings` must be 0 to 9"):
        TaflGymEnv("brandubh", max_plies=10, openings=10)
