"""Any tafl variant as an OpenSpiel game: importing this module registers ``tafl`` with pyspiel.

>>> import pyspiel
>>> import tafl.openspiel
>>> game = pyspiel.load_game("tafl", {"variant": "brandubh"})
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(0, 40)

Parameters (``pyspiel.load_game("tafl", {...})`` or ``"tafl(variant=brandubh,max_plies=200)"``):

- ``variant``: a bundled variant's name or a variant file's path (default ``copenhagen``);
- ``text``: a variant's whole text, used instead of ``variant`` when not empty;
- ``max_plies``: the game ends as a draw after that many plies (default 400, the cap of
  ``tafl selfplay``): OpenSpiel needs a longest game, and variant files have none of their own.

The game is sequential, deterministic, perfect-information and zero-sum, with a terminal reward:
+1 to the winner, -1 to the loser, 0 to both for a draw or a cut. Player 0 is the attackers and
player 1 the defenders, whoever the variant lets move first (``state.current_player()`` says who
moves; a berserk capture can give the same player the next move too). Actions and the
observation tensor are those of the PettingZoo and vector environments (docs/python.md): the
actions ``Variant.action_count`` numbers, the planes of ``Game.planes(to_move=True)`` as float32.
States clone, serialise (``pyspiel.serialize_game_and_state``) and pickle; games pickle.
``undo_action`` is not available: pyspiel's Python games cannot take back the history the C++
side keeps (clone the state before the move instead).
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ._args import whole
from ._tafl import Game, Variant

__all__ = ["TaflGame", "TaflState", "GAME_TYPE"]

#: The ply cap when the parameters give none: `tafl selfplay`'s.
DEFAULT_MAX_PLIES = 400

_PLAYERS = ("attackers", "defenders")

GAME_TYPE = pyspiel.GameType(
    short_name="tafl",
    long_name="Tafl (any hnefatafl or tablut variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "copenhagen", "text": "", "max_plies": DEFAULT_MAX_PLIES},
)


def _variant(params: dict) -> Variant:
    text = params.get("text", "")
    if text:
        return Variant.from_text(text, origin="<openspiel text>")
    return Variant(params.get("variant", "copenhagen"))


class TaflGame(pyspiel.Game):
    """A tafl variant as an OpenSpiel game; see the module's docstring."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.variant = _variant(params)
        self.max_plies = whole(params.get("max_plies", DEFAULT_MAX_PLIES), "max_plies", 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.variant.action_count,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies,
        )
        super().__init__(GAME_TYPE, info, params)
        self.plane_shape = Game(self.variant).planes(to_move=True).shape

    def new_initial_state(self):
        """The variant's first position."""
        return TaflState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The board planes (for the observation tensor and string), or OpenSpiel's public-info
        observer for information states."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.plane_shape, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class TaflState(pyspiel.State):
    """A position of a tafl game, with the moves that led to it."""

    def __init__(self, game: TaflGame):
        super().__init__(game)
        self.game = Game(game.variant)
        self.max_plies = game.max_plies

    def _cut(self) -> bool:
        return self.game.ply_count >= self.max_plies

    def current_player(self):
        """0 (attackers) or 1 (defenders) to move, or TERMINAL."""
        if self.game.is_over or self._cut():
            return pyspiel.PlayerId.TERMINAL
        return _PLAYERS.index(self.game.to_move)

    def _legal_actions(self, player):
        """The legal actions of the player to move, ascending."""
        del player  # Only the player to move has actions; OpenSpiel asks for that one.
        return self.game.legal_actions()

    def _apply_action(self, action):
        self.game.play_action(action)

    def _action_to_string(self, player, action):
        del player
        move = self.game.variant.action_move(action)
        return str(move) if move is not None else f"action {action}"

    def is_terminal(self):
        return self.game.is_over or self._cut()

    def returns(self):
        """+1 to the winner and -1 to the loser at the end; 0 to both otherwise."""
        winner = self.game.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == "attackers" else [-1.0, 1.0]

    def __str__(self):
        return self.game.board()


class BoardObserver:
    """The observation: the planes of ``Game.planes(to_move=True)``, float32 (PyObserver API)."""

    def __init__(self, shape, params):
        if params:
            raise ValueError(f"the tafl observation takes no parameters, not {params}")
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        del player  # Both players see the whole board.
        self.dict["observation"][...] = state.game.planes(to_move=True)

    def string_from(self, state, player):
        del player
        return f"{state.game.board()}{state.game.to_move} to move"


pyspiel.register_game(GAME_TYPE, TaflGame)
