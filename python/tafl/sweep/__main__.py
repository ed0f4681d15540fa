"""``python -m tafl.sweep spec.toml``: a balance sweep from a TOML file (docs/python.md).

Prints the table; ``--csv FILE`` writes it, ``--chart FILE`` draws it (PNG, SVG or PDF by the
name's ending); ``--address`` joins a Ray cluster, ``--workers`` sizes a local Ray.
"""

from __future__ import annotations

import argparse
import sys

from .._tafl import LintError
from . import chart, sweep

# The keys of a spec file besides `base` and `[[change]]`, and what they are passed as.
SETTINGS = ("games", "depth", "time_ms", "openings", "opening_moves", "seed", "cap", "games_per_task", "workers", "address", "weights")


def _toml(path: str) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python before 3.11
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            sys.exit("error: reading TOML needs Python 3.11 or `pip install tomli`")
    with open(path, "rb") as f:
        return tomllib.load(f)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tafl.sweep", description=__doc__.splitlines()[0])
    parser.add_argument("spec", help="the sweep's TOML file")
    parser.add_argument("--csv", help="write the table to this CSV file")
    parser.add_argument("--chart", help="draw the win rates into this image file")
    parser.add_argument("--address", help="a Ray cluster's address (default: start a local Ray)")
    parser.add_argument("--workers", type=int, help="CPUs of the local Ray (default: all)")
    args = parser.parse_args(argv)
    try:
        spec = _toml(args.spec)
    except (OSError, ValueError) as e:
        print(f"error: cannot read {args.spec}: {e}", file=sys.stderr)
        return 2
    unknown = set(spec) - set(SETTINGS) - {"base", "change"}
    if "base" not in spec or unknown:
        print(f"error: {args.spec} needs `base` and knows only {SETTINGS} and [[change]]; unknown: {sorted(unknown)}", file=sys.stderr)
        return 2
    settings = {k: spec[k] for k in SETTINGS if k in spec}
    for key in ("address", "workers"):
        if getattr(args, key) is not None:
            settings[key] = getattr(args, key)
    try:
        table = sweep(spec["base"], spec.get("change", []), **settings)
    except (LintError, ValueError, TypeError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table.drop(columns=["reasons"]).round(3).to_string())
    if args.csv:
        table.to_csv(args.csv)
    if args.chart:
        chart(table, args.chart)
    return 0


if __name__ == "__main__":
    sys.exit(main())
