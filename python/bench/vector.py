"""Steps a second of the vectorised environment against the PettingZoo loop, in one run
(docs/python.md, "The vectorised environment").

    python python/bench/vector.py [VARIANT ...] [--games 1024] [--seconds 3]

For each variant (default Brandubh and Copenhagen), with `--games` games and uniformly random
legal actions, masks and observations included on both sides:

- `pettingzoo`: `--games` AEC environments stepped in turn, each step as an agent loop takes it
  (`env.last()` for the observation and mask, a random legal action from the mask with numpy,
  `env.step(action)`), games reset when they end;
- `vector, rust draws`: one `tafl.vector.VectorEnv` of `--games` games, the actions from
  `sample_actions()` (drawn in Rust), then `step`;
- `vector, numpy draws`: the same, the actions drawn in Python from `info["action_mask"]`
  (`masked_choice`: the flat indices of the legal actions, one draw a row), as an agent that
  reads the mask would;
- where the vector step's time goes: `sample_actions` and `step` timed apart, and `step` on one
  thread (RAYON_NUM_THREADS=1 in a child process) for the cost per game.

Wall-clock time (the vector environment runs on several threads). Nothing is asserted: the
numbers depend on the machine and on what else runs on it.
"""

import argparse
import os
import subprocess
import sys
import time

import numpy as np

import tafl
import tafl.vector


def pettingzoo_rate(variant, games, seconds, seed=0):
    """Agent steps a second of `games` PettingZoo environments stepped in turn."""
    rng = np.random.default_rng(seed)
    envs = [tafl.env(variant) for _ in range(games)]
    for env in envs:
        env.reset(seed=seed)
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for env in envs:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset()
                obs, _, _, _, _ = env.last()
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            steps += 1
    return steps / (time.perf_counter() - started)


def masked_choice(mask, rng):
    """One uniformly random legal action a row of `mask` (games x actions, bool), in numpy: the
    legal actions' flat indices, each row's count and first index, one draw a row."""
    flat = np.flatnonzero(mask)
    counts = mask.sum(axis=1)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    picks = starts + (rng.random(len(counts)) * counts).astype(np.int64)
    return flat[picks] % mask.shape[1]


def vector_rate(variant, games, seconds, draws, seed=0):
    """Steps a second (games x vector steps) of one VectorEnv, with the actions drawn by
    `draws` ("rust" or "numpy"); also the seconds spent drawing and stepping."""
    env = tafl.vector.VectorEnv(variant, num_envs=games, seed=seed)
    rng = np.random.default_rng(seed)
    _, info = env.reset()
    mask = info["action_mask"]
    steps, drawing, stepping = 0, 0.0, 0.0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        t0 = time.perf_counter()
        if draws == "rust":
            actions = env.sample_actions()
        else:
            actions = masked_choice(mask, rng)
        t1 = time.perf_counter()
        env.step(actions)
        t2 = time.perf_counter()
        drawing += t1 - t0
        stepping += t2 - t1
        steps += games
    total = time.perf_counter() - started
    return steps / total, drawing / steps * 1e6, stepping / steps * 1e6


def one_thread_step_us(variant, games, seconds):
    """Microseconds of `step` a game on one thread, in a child process."""
    code = (
        "import sys, time, tafl.vector\n"
        f"env = tafl.vector.VectorEnv({variant!r}, num_envs={games}, seed=0)\n"
        "env.reset()\n"
        "steps, spent, started = 0, 0.0, time.perf_counter()\n"
        f"while time.perf_counter() - started < {seconds}:\n"
        "    a = env.sample_actions()\n"
        "    t = time.perf_counter(); env.step(a); spent += time.perf_counter() - t\n"
        f"    steps += {games}\n"
        "print(spent / steps * 1e6)\n"
    )
    child_env = dict(os.environ, RAYON_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], env=child_env, check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=["brandubh", "copenhagen"])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{args.games} games, random legal actions, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for variant in args.variants:
        pz = pettingzoo_rate(variant, args.games, args.seconds)
        rust, rust_draw, rust_step = vector_rate(variant, args.games, args.seconds, "rust")
        npy, np_draw, np_step = vector_rate(variant, args.games, args.seconds, "numpy")
        single = one_thread_step_us(variant, args.games, args.seconds)
        print(f"\n{variant}")
        print(f"  pettingzoo loop          {pz:>12,.0f} steps/s")
        print(f"  vector, rust draws       {rust:>12,.0f} steps/s  ({rust / pz:.1f}x)"
              f"  draw {rust_draw:.2f} us + step {rust_step:.2f} us a game")
        print(f"  vector, numpy draws      {npy:>12,.0f} steps/s  ({npy / pz:.1f}x)"
              f"  draw {np_draw:.2f} us + step {np_step:.2f} us a game")
        print(f"  vector step on 1 thread  {single:.2f} us a game")


if __name__ == "__main__":
    main()
