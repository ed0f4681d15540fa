"""A PettingZoo AEC environment for any tafl variant, and the pieces the Gymnasium wrapper shares.

Agents ``"attackers"`` and ``"defenders"``. Each agent's observation is a dict:

- ``"observation"``: uint8 array (planes, height, width): one plane per piece kind, one per region
  (special squares), and a last plane of ones when the attackers are to move (``plane_names``).
  Row 0 is the top rank, column 0 file ``a``.
- ``"action_mask"``: int8 array over the action space, 1 where the action is a legal move for
  this agent now (all zero when it is not this agent's turn or the game is over).

Actions are numbered from-square x (direction, distance) (``Variant.action_kind == "line"``):
``((rank * width + file) * 4 + direction) * (max(width, height) - 1) + distance - 1`` with
directions north, east, south, west; 11x11 has 121 x 40 = 4,840 actions. A variant where a piece
may move to any empty square (Thrones and Bones' Black Draug) uses from-square x to-square instead
(``"from_to"``). ``Variant.action_move`` and ``Variant.move_action`` convert.

Rewards: +1 to the winner, -1 to the loser, 0 otherwise. The game terminates when the variant's
rules end it; it is truncated (both agents) after ``max_plies`` plies (default 400, the cap of
``tafl selfplay``; variant files have no ply cap of their own).
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._args import optional_whole, whole
from ._tafl import Game, IllegalMoveError, Variant

AGENTS = ("attackers", "defenders")

#: The ply cap: `tafl selfplay`'s default.
DEFAULT_MAX_PLIES = 400


def _variant(variant: Union[str, Variant]) -> Variant:
    return variant if isinstance(variant, Variant) else Variant(variant)


def observation_space(variant: Variant) -> spaces.Dict:
    """The observation space of ``variant``'s environment (the same for both agents)."""
    game = Game(variant)
    planes = len(game.plane_names(to_move=True))
    shape = (planes, variant.height, variant.width)
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 1, shape=shape, dtype=np.uint8),
            "action_mask": spaces.Box(0, 1, shape=(variant.action_count,), dtype=np.int8),
        }
    )


# Colours of rgb_array renders: board, special squares, grid, and each side's pieces.
_LIGHT = np.array([222, 196, 150], np.uint8)
_SPECIAL = np.array([170, 120, 80], np.uint8)
_GRID = np.array([90, 60, 30], np.uint8)
_PIECE = {"attackers": np.array([30, 30, 30], np.uint8), "defenders": np.array([245, 245, 240], np.uint8)}
_KING_MARK = np.array([200, 30, 30], np.uint8)


def rgb_array(game: Game, square: int = 32) -> np.ndarray:
    """The board as an RGB image (height*square, width*square, 3), uint8: special squares
    darker, pieces as discs, dark for the attackers and light for the defenders, kings with a
    red centre."""
    variant = game.variant
    h, w = variant.height, variant.width
    planes = game.planes()
    kinds = variant.pieces
    image = np.empty((h * square, w * square, 3), np.uint8)
    image[:] = _LIGHT
    # Regions other than `edge` (the border, plain to see) are drawn darker: throne, corners...
    special = np.zeros((h, w), bool)
    for i, (name, _) in enumerate(variant.regions):
        if name != "edge":
            special |= planes[len(kinds) + i].astype(bool)
    yy, xx = np.mgrid[0:square, 0:square]
    centre = (square - 1) / 2
    dist = np.hypot(yy - centre, xx - centre)
    disc, mark = dist <= square * 0.38, dist <= square * 0.14
    for row in range(h):
        for col in range(w):
            cell = image[row * square:(row + 1) * square, col * square:(col + 1) * square]
            if special[row, col]:
                cell[:] = _SPECIAL
            cell[0, :] = _GRID
            cell[:, 0] = _GRID
            for index, (_, side, _, role) in enumerate(kinds):
                if planes[index, row, col]:
                    cell[disc] = _PIECE[side]
                    if role == "king":
                        cell[mark] = _KING_MARK
    return image


class TaflEnv(AECEnv):
    """Two-player AEC environment of one tafl variant (see the module's docstring).

    ``TaflEnv("copenhagen")``, ``TaflEnv(tafl.Variant.from_text(...), max_plies=200)``.
    ``render_mode``: ``"ansi"`` (returns the board as text), ``"human"`` (prints it) or
    ``"rgb_array"`` (returns an image). An action the mask forbids (an int out of range
    included) raises ``tafl.IllegalMoveError``, anything but an int (a float, a string)
    ``TypeError``, and changes nothing. ``step`` before ``reset``, or after every agent is done,
    raises ``tafl.IllegalMoveError`` saying to call ``reset()``.
    """

    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "tafl_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: Union[str, Variant] = "copenhagen",
        render_mode: Optional[str] = None,
        max_plies: int = DEFAULT_MAX_PLIES,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        max_plies = whole(max_plies, "max_plies", 1)
        self.variant = _variant(variant)
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.possible_agents = list(AGENTS)
        self.agents = []
        obs_space = observation_space(self.variant)
        act_space = spaces.Discrete(self.variant.action_count)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._no_moves = np.zeros(self.variant.action_count, np.int8)
        self.game = Game(self.variant)
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        mine = not game.is_over and game.to_move == agent
        return {
            "observation": game.planes(to_move=True),
            "action_mask": game.legal_action_mask() if mine else self._no_moves.copy(),
        }

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        # The game has no randomness: the seed is accepted for the API (and checked, as a seed
        # is), and changes nothing.
        optional_whole(seed, "seed")
        self._started = True
        self.game = Game(self.variant)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.game.to_move

    def step(self, action: int) -> None:
        if not self.agents:
            # Every agent has stepped out (or none came in): there is no one to act for.
            why = "the game is over" if self._started else "no game has started"
            raise IllegalMoveError(f"{why}: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        # The action is read in Rust: an int (numpy's too), never a float or a string.
        game.play_action(action)
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        if game.is_over:
            winner = game.winner
            for a in self.agents:
                self.terminations[a] = True
                self.rewards[a] = 0 if winner is None else (1 if a == winner else -1)
                self.infos[a] = {"status": game.status, "reason": game.reason}
        elif game.ply_count >= self.max_plies:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"status": "capped", "reason": None}
        # A berserk capture can give the same side the next move too.
        self.agent_selection = game.to_move
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode= to the environment")
            return None
        if self.render_mode == "rgb_array":
            return rgb_array(self.game)
        text = f"{self.game.board()}{self.game.to_move} to move, ply {self.game.ply_count}, {self.game.status}\n"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(variant: Union[str, Variant] = "copenhagen", **kwargs) -> TaflEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return TaflEnv(variant, **kwargs)


def env(variant: Union[str, Variant] = "copenhagen", **kwargs) -> AECEnv:
    """The environment for ``variant``, wrapped so that calls out of order raise (PettingZoo's
    ``OrderEnforcingWrapper``). Keyword arguments go to ``TaflEnv``."""
    return wrappers.OrderEnforcingWrapper(TaflEnv(variant, **kwargs))
