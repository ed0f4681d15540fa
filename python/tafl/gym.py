"""A Gymnasium single-agent environment: one side of a tafl variant against the built-in computer.

>>> import tafl.gym
>>> env = tafl.gym.TaflGymEnv("brandubh", play_as="defenders", opponent_depth=1)
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].nonzero()[0][0]))

Observations and actions are those of the PettingZoo environment (``tafl.environment``); the
mask is also ``info["action_mask"]`` and ``env.action_masks()`` (the name sb3-contrib's
MaskablePPO asks for). Reward +1 for a win, -1 for a loss, 0 otherwise; ``truncated`` after
``max_plies`` plies. The computer searches to ``opponent_depth`` plies or for
``opponent_time_ms`` milliseconds (a depth is reproducible; a time is not); both are checked
when the environment is made.

Each episode starts with ``openings`` random plies (default 4, as ``tafl selfplay``), drawn
from the generator ``reset(seed=...)`` seeds, so that seeds give different episodes and the
same seed the same one; none of them ends the game. ``openings=0`` starts every episode from
the variant's first position.

Gymnasium lets an agent send any action of the space, so an illegal action (one the mask
forbids, an int out of range included) is by default a loss: the episode terminates with
reward -1 and ``info["illegal"]`` true, and the game is left as it was. ``illegal="raise"``
raises ``tafl.IllegalMoveError`` instead, as the PettingZoo environment does. Anything but an
int (a float, a string) raises ``TypeError`` either way. If the computer's move fails, ``step``
raises and the game is as it was before the agent's action. ``gymnasium.make("tafl/Tafl-v0",
variant=...)`` also builds it.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from ._args import optional_whole, whole
from ._tafl import MAX_DEPTH, Game, IllegalMoveError, Variant
from .environment import AGENTS, DEFAULT_MAX_PLIES, _variant, observation_space, rgb_array


class TaflGymEnv(gymnasium.Env):
    """One side (``play_as``) of ``variant`` against the computer; see the module's docstring."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        variant: Union[str, Variant] = "copenhagen",
        play_as: str = "attackers",
        opponent_depth: Optional[int] = 2,
        opponent_time_ms: Optional[int] = None,
        max_plies: int = DEFAULT_MAX_PLIES,
        render_mode: Optional[str] = None,
        illegal: str = "lose",
        openings: int = 4,
    ):
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if play_as not in AGENTS:
            raise ValueError(f"play_as must be 'attackers' or 'defenders', not {play_as!r}")
        if opponent_time_ms is not None:
            opponent_depth = None
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        max_plies = whole(max_plies, "max_plies", 1)
        # The openings must leave the agent a move before the cap.
        self.openings = whole(openings, "openings", 0, max_plies - 1)
        self.variant = _variant(variant)
        self.play_as = play_as
        # Checked as the computer will read them, now rather than in the middle of a step.
        self.opponent = {
            "depth": optional_whole(opponent_depth, "opponent_depth", 1, MAX_DEPTH),
            "time_ms": optional_whole(opponent_time_ms, "opponent_time_ms", 0, 2**64 - 1),
        }
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_played = False
        self.observation_space = observation_space(self.variant)
        self.action_space = spaces.Discrete(self.variant.action_count)
        self.game = Game(self.variant)
        self._started = False

    def _observation(self) -> dict[str, np.ndarray]:
        game = self.game
        if not game.is_over and not self.illegal_played and game.to_move == self.play_as:
            mask = game.legal_action_mask()
        else:
            mask = np.zeros(self.variant.action_count, np.int8)
        return {"observation": game.planes(to_move=True), "action_mask": mask}

    def _info(self, obs: dict[str, np.ndarray]) -> dict[str, Any]:
        return {
            "action_mask": obs["action_mask"],
            "status": self.game.status,
            "reason": self.game.reason,
            "illegal": self.illegal_played,
        }

    def _random_openings(self) -> None:
        """``openings`` random plies from ``np_random``, none of which ends the game (a ply that
        would is taken back and another tried; if every one would, the openings stop there)."""
        game = self.game
        for _ in range(self.openings):
            moves = game.legal_moves()
            for i in self.np_random.permutation(len(moves)):
                game.play(moves[i])
                if not game.is_over:
                    break
                game.undo()
            else:
                return

    def _opponent_moves(self) -> None:
        """The computer plays until it is the agent's turn, the game ends or the cap is reached."""
        game = self.game
        while not game.is_over and game.to_move != self.play_as and game.ply_count < self.max_plies:
            found = game.best(**self.opponent)
            if found.move is None:
                break
            game.play(found.move)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a boolean array."""
        return self._observation()["action_mask"].astype(bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None):
        # Read as every seed of the package is (Gymnasium's own check refuses numpy's ints).
        super().reset(seed=optional_whole(seed, "seed"))
        self.game = Game(self.variant)
        self.illegal_played = False
        self._started = True
        self._random_openings()
        self._opponent_moves()
        obs = self._observation()
        return obs, self._info(obs)

    def step(self, action: int):
        game = self.game
        if not self._started:
            raise IllegalMoveError("no episode has started: call reset()")
        if game.is_over or game.ply_count >= self.max_plies or self.illegal_played:
            raise IllegalMoveError("the episode has ended: call reset()")
        before = game.ply_count
        try:
            # Read in Rust: an int (numpy's too), never a float or a string (TypeError).
            game.play_action(action)
        except IllegalMoveError:
            if self.illegal == "raise":
                raise
            self.illegal_played = True
            obs = self._observation()
            return obs, -1.0, True, False, self._info(obs)
        try:
            self._opponent_moves()
        except BaseException:
            # Not half a step: the agent's move is taken back with the computer's.
            while game.ply_count > before:
                game.undo()
            raise
        winner = game.winner
        reward = 0.0 if winner is None else (1.0 if winner == self.play_as else -1.0)
        terminated = game.is_over
        truncated = not terminated and game.ply_count >= self.max_plies
        obs = self._observation()
        return obs, reward, terminated, truncated, self._info(obs)

    def render(self):
        if self.render_mode == "rgb_array":
            return rgb_array(self.game)
        if self.render_mode == "ansi":
            return f"{self.game.board()}{self.game.to_move} to move, ply {self.game.ply_count}\n"
        return None


# `gymnasium.make("tafl/Tafl-v0", variant="brandubh", play_as="defenders")` finds it.
gymnasium.register(id="tafl/Tafl-v0", entry_point="tafl.gym:TaflGymEnv")
