"""Speed of the Python package against the native engine (docs/python.md, "Speed").

    python python/bench/speed.py [VARIANT] [--games N]

Prints, for one variant:
- random games per second: native (`tafl.playouts`, the same Rust function as `tafl playouts`),
  through the Python API (`legal_moves` + `play`), and through action numbers
  (`legal_actions` + `play_action`), with the ratio to native;
- the cost of one environment step (TaflEnv.step plus observe, as an agent loop calls them) and
  of its parts, next to the cost of an empty Python method call.
Times are this process's CPU time (time.process_time), so that other work on a busy machine
inflates them less. Nothing here is asserted: the numbers depend on the machine.
"""

import argparse
import random
import time
import timeit

import tafl
from tafl.environment import TaflEnv


def per_second(games, seconds):
    return games / seconds if seconds > 0 else float("inf")


def random_playouts(variant, games, seed, cap, choices, play):
    """Uniformly random games: `choices(game)` lists what may be played, `play(game, choice)`
    plays one. Returns the CPU seconds and the plies played."""
    rng = random.Random(seed)
    plies = 0
    started = time.process_time()
    for _ in range(games):
        game = tafl.Game(variant)
        while not game.is_over and game.ply_count < cap:
            options = choices(game)
            play(game, options[rng.randrange(len(options))])
        plies += game.ply_count
    return time.process_time() - started, plies


def python_playouts(variant, games, seed, cap):
    return random_playouts(variant, games, seed, cap, tafl.Game.legal_moves, tafl.Game.play)


def action_playouts(variant, games, seed, cap):
    return random_playouts(
        variant, games, seed, cap, tafl.Game.legal_actions, tafl.Game.play_action
    )


class Empty:
    def step(self, action):
        return None


def env_step_cost(variant, steps, seed):
    """Microseconds per step of the raw env (step + observe of the next agent), over random
    masked games, with the random choice timed apart and taken out."""
    rng = random.Random(seed)
    env = TaflEnv(variant, max_plies=10_000)
    env.reset()
    total = choose = 0.0
    done = 0
    while done < steps:
        obs = env.observe(env.agent_selection)
        t0 = time.process_time()
        legal = obs["action_mask"].nonzero()[0]
        action = int(legal[rng.randrange(len(legal))])
        t1 = time.process_time()
        env.step(action)
        if env.game.is_over:
            env.reset()
        else:
            env.observe(env.agent_selection)
        t2 = time.process_time()
        choose += t1 - t0
        total += t2 - t1
        done += 1
    return 1e6 * total / steps, 1e6 * choose / steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("variant", nargs="?", default="copenhagen")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--steps", type=int, default=20000)
    args = parser.parse_args()
    variant = tafl.Variant(args.variant)
    cap = 500
    started = time.process_time()
    native = tafl.playouts(variant, args.games * 10, seed=1, cap=cap)
    native_rate = per_second(native["games"], time.process_time() - started)
    print(f"{variant.name}: random games to the end (cap {cap} plies)")
    print(f"  native (tafl.playouts, 1 thread): {native_rate:10.0f} games/s, {native['plies'] / native['games']:.0f} plies a game")
    for label, run in (("Python API (legal_moves + play)", python_playouts), ("actions (legal_actions + play_action)", action_playouts)):
        seconds, plies = run(variant, args.games, 1, cap)
        rate = per_second(args.games, seconds)
        print(f"  {label:38s}: {rate:10.0f} games/s, {1e6 * seconds / plies:6.2f} µs a ply, native/this = {native_rate / rate:.1f}")
    game = tafl.Game(variant)
    number = 20000
    empty = Empty()
    call = 1e6 * timeit.timeit(timer=time.process_time, stmt=lambda: empty.step(0), number=number) / number
    parts = {
        "legal_action_mask()": lambda: game.legal_action_mask(),
        "planes(to_move=True)": lambda: game.planes(to_move=True),
        "legal_moves()": lambda: game.legal_moves(),
        "ply_count (a getter)": lambda: game.ply_count,
    }
    step, choose = env_step_cost(variant, args.steps, 1)
    print(f"  env: step + observe {step:.2f} µs a step (the random choice, {choose:.2f} µs, apart)")
    print(f"  an empty Python method call through a lambda: {call:.2f} µs; step + observe beyond it: {step - call:.2f} µs")
    for label, fn in parts.items():
        cost = 1e6 * timeit.timeit(timer=time.process_time, stmt=fn, number=number) / number
        print(f"    {label:24s} {cost:6.2f} µs")


if __name__ == "__main__":
    main()
