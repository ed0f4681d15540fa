"""Shared helpers of the Python tests: the `tafl` program of the same checkout, for comparisons."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli_path():
    """The `tafl` binary `cargo test` or `cargo build` left in target/ (release first)."""
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "tafl"
        if path.exists():
            return path
    return None


@pytest.fixture(scope="session")
def cli():
    """Runs the native `tafl` with arguments and returns its JSON output."""
    path = cli_path()
    if path is None:
        pytest.skip("no target/*/tafl: run `cargo build` (CI runs `cargo test` first, which builds it)")

    def run(*args):
        out = subprocess.run([str(path), *map(str, args)], check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    return run


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray with 2 workers, shut down after the module's tests."""
    ray = pytest.importorskip("ray")
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
