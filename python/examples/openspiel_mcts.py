"""OpenSpiel's MCTS bot against tafl's own player, one full game (docs/python.md, "OpenSpiel").

    python python/examples/openspiel_mcts.py [--variant brandubh] [--simulations 100]
        [--depth 2] [--mcts-plays attackers] [--max-plies 200] [--seed 0]

MCTS (``open_spiel.python.algorithms.mcts.MCTSBot`` with random rollouts, OpenSpiel's code
unchanged) plays one side of ``pyspiel.load_game("tafl", ...)``; the other side is
``tafl.Game.best(depth=...)``, the engine's search. Prints each move and the result, and returns
the final state's returns (attackers, defenders).
"""

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import tafl.openspiel  # noqa: F401  (registers the game "tafl")


def play(variant="brandubh", simulations=100, depth=2, mcts_plays="attackers", max_plies=200, seed=0, show=print):
    """Plays one game to its end and returns the final state."""
    game = pyspiel.load_game("tafl", {"variant": variant, "max_plies": max_plies})
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
    )
    mcts_player = ("attackers", "defenders").index(mcts_plays)
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player == mcts_player:
            action = bot.step(state)
            who = "mcts"
        else:
            # tafl's own player: the engine's search on the same position (the state keeps a
            # tafl.Game), its move turned into OpenSpiel's action number.
            best = state.game.best(depth=depth)
            action = game.variant.move_action(best.move)
            who = f"tafl depth {depth}"
        show(f"{state.game.ply_count + 1:>3} {who:>12}: {state.action_to_string(player, action)}")
        state.apply_action(action)
    show(f"{state.game.status} ({state.game.reason or 'ply cap'}) after {state.game.ply_count} plies; returns {state.returns()}")
    return state


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="brandubh")
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--mcts-plays", choices=["attackers", "defenders"], default="attackers")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    play(args.variant, args.simulations, args.depth, args.mcts_plays, args.max_plies, args.seed)


if __name__ == "__main__":
    main()
