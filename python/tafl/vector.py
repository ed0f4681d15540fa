"""Many games of one variant stepped together in Rust: a Gymnasium vector environment.

>>> import tafl.vector
>>> env = tafl.vector.VectorEnv("copenhagen", num_envs=1024, seed=0)
>>> obs, info = env.reset()
>>> obs.shape, info["action_mask"].shape          # (games, planes, height, width), (games, actions)
((1024, 7, 11, 11), (1024, 4840))
>>> obs, rewards, terminated, truncated, info = env.step(env.sample_actions())

One call steps every game, on all cores (rayon, GIL released), and writes the results into numpy
arrays made once: ``obs``, ``rewards``, ``terminated``, ``truncated`` and the arrays of ``info``
are the same objects at every step, written over by the next one (``.copy()`` what you keep).

- **Observation** of game ``i``: ``obs[i]``, the planes of ``Game.planes(to_move=True)`` (the
  PettingZoo environment's ``"observation"``), uint8 (planes, height, width).
- **Actions**: the PettingZoo environment's numbering (``Variant.action_count``,
  ``Variant.action_move``); ``step`` takes one int a game.
- ``info["action_mask"]``: bool (games, actions), the legal actions of the side to move.
- ``info["to_move"]``: int8 (games,), who moves next in each game: 0 the attackers, 1 the
  defenders (a berserk capture can give the same side the next move too).
- **Rewards** float32: +1 when game ``i``'s move won it for the side that moved, -1 when it lost
  it, 0 otherwise (draws, cuts at ``max_plies``). So one policy playing both sides learns from
  the mover's view (``info["to_move"]`` before the step says who that was).
- ``info["winner"]``: int8 (games,), after a step: 0 the attackers won, 1 the defenders, -1 no
  one (the game goes on, was drawn or cut).
- **Auto-reset in the same step** (Gymnasium's ``AutoresetMode.SAME_STEP``): a game that ends is
  started again at once, so ``obs`` and the mask are always those of a game to play;
  ``info["final_obs"]`` holds the last position of each game that ended (where
  ``info["_final_obs"]`` is true).
- **Seeds**: each new game opens with ``openings`` random plies (default 0) that do not end it,
  drawn from game ``i``'s own stream of ``seed``; ``sample_actions()`` draws from another stream
  of the same seed. The same seed gives the same games for the same actions.
- An action that is not legal in its game raises ``tafl.IllegalMoveError`` naming the game, and
  no game moves; an array of the wrong length raises ``ValueError``; one of floats ``TypeError``.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from ._args import optional_whole
from ._tafl import Variant, VectorCore
from .environment import DEFAULT_MAX_PLIES, observation_space

__all__ = ["VectorEnv"]


class VectorEnv(GymVectorEnv):
    """``num_envs`` games of ``variant`` (a name, a path or a ``tafl.Variant``) as one Gymnasium
    vector environment; see the module's docstring.

    ``VectorEnv("copenhagen", num_envs=1024, seed=0, openings=0, max_plies=400)``.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        variant: Union[str, Variant] = "copenhagen",
        num_envs: int = 1024,
        seed: Optional[int] = None,
        openings: int = 0,
        max_plies: int = DEFAULT_MAX_PLIES,
    ):
        self.variant = variant if isinstance(variant, Variant) else Variant(variant)
        seed = optional_whole(seed, "seed")
        if seed is None:
            # Fresh entropy, as Gymnasium seeds an environment given none.
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._core = VectorCore(self.variant, num_envs, seed, openings, max_plies)
        self.num_envs = self._core.num_envs
        self.max_plies = max_plies
        self.openings = openings
        self.single_observation_space = observation_space(self.variant)["observation"]
        self.single_action_space = spaces.Discrete(self.variant.action_count)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._arrays = dict(self._core.arrays())
        self._info_keys = ("action_mask", "to_move", "winner", "final_obs", "_final_obs")
        self._started = False

    @property
    def action_mask(self) -> np.ndarray:
        """The legal actions of every game now: bool (games, actions), as ``info["action_mask"]``."""
        return self._arrays["action_mask"]

    def _info(self) -> dict[str, np.ndarray]:
        return {key: self._arrays[key] for key in self._info_keys}

    def reset(
        self, *, seed: Optional[Union[int, list]] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Starts every game again; with ``seed``, restarts every game's random streams from it."""
        if isinstance(seed, (list, tuple)):
            raise TypeError("`seed` is one int for all the games (game i draws from its own stream of it)")
        self._core.reset(seed)
        self._started = True
        return self._arrays["obs"], self._info()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Plays ``actions[i]`` in game ``i`` for every game; see the module's docstring."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        array = np.asarray(actions)
        if array.dtype.kind not in "iu":
            raise TypeError(f"`actions` must be ints (one action a game), not {array.dtype}")
        if array.ndim != 1:
            raise ValueError(f"`actions` must be one-dimensional (one action a game), not of shape {array.shape}")
        # Unsigned ints past int64's range would wrap: they are no action of any variant anyway.
        if array.dtype.kind == "u" and array.size and array.max() > np.iinfo(np.int64).max:
            array = np.minimum(array, np.iinfo(np.int64).max)
        self._core.step(np.ascontiguousarray(array, dtype=np.int64))
        a = self._arrays
        return a["obs"], a["rewards"], a["terminated"], a["truncated"], self._info()

    def sample_actions(self) -> np.ndarray:
        """One random legal action a game (int64), drawn in Rust from each game's own stream."""
        if not self._started:
            raise RuntimeError("call reset() before sample_actions()")
        return self._core.sample_actions()

    def history(self, index: int) -> list[str]:
        """The moves of game ``index`` since it last started, as text."""
        return self._core.history(index)

    def close_extras(self, **kwargs: Any) -> None:
        pass
