"""Games per hour of a sweep on a local Ray with 1 and then 2 workers (docs/python.md).

    python python/bench/sweep_scaling.py [--games N] [--depth D] [--variant brandubh]

Each worker count runs in a fresh process (one ray.init per process), playing the same sweep:
the base variant and one change, N games each. Prints games per hour and the speed-up.
"""

import argparse
import json
import subprocess
import sys

CHILD = """
import json, sys, time, ray, tafl
workers, games, depth, variant = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
ray.get([ray.remote(lambda: 0).remote() for _ in range(workers)])  # workers started before timing
table = tafl.sweep(variant, {"king unarmed": ("the king is armed", "the king is unarmed")},
                   games=games, depth=depth, games_per_task=5)
played = int(table["games"].sum())
print(json.dumps({"workers": workers, "games": played, "seconds": float(table["seconds"].iloc[0])}))
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--variant", default="brandubh")
    args = parser.parse_args()
    rates = {}
    for workers in (1, 2):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(workers), str(args.games), str(args.depth), args.variant],
            check=True, capture_output=True, text=True,
        )
        result = json.loads(out.stdout.strip().splitlines()[-1])
        rates[workers] = 3600 * result["games"] / result["seconds"]
        print(f"{workers} worker(s): {result['games']} games in {result['seconds']:.1f} s = {rates[workers]:,.0f} games/hour")
    print(f"speed-up with 2 workers: {rates[2] / rates[1]:.2f}x")


if __name__ == "__main__":
    main()
