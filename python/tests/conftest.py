"""Shared helpers of the Python tests: the `tafl` program of the same checkout, for comparisons."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def target_dir():
    """Cargo's target directory, as the CI scripts find it: `cargo metadata`, else
    $CARGO_TARGET_DIR, else target/ beside Cargo.toml."""
    try:
        out = subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps", "--offline"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        )
        return pathlib.Path(json.loads(out.stdout)["target_directory"])
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError):
        return ROOT / os.environ.get("CARGO_TARGET_DIR", "target")


def cli_path():
    """The `tafl` program: $TAFL_BIN, else the one `cargo test` or `cargo build` left in the
    target directory (release first)."""
    named = os.environ.get("TAFL_BIN")
    if named:
        return pathlib.Path(named)
    for profile in ("release", "debug"):
        path = target_dir() / profile / "tafl"
        if path.exists():
            return path
    return None


@pytest.fixture(scope="session")
def cli_program():
    """The native `tafl` program's path. Outside CI a missing program skips the tests that run
    it; in CI (CI=true, as .ci/run sets) it fails them, so that they can never pass by not
    running."""
    path = cli_path()
    if path is None or not path.exists():
        why = f"no tafl program ({path or 'debug/tafl or release/tafl in ' + str(target_dir())}): run `cargo build`, or set TAFL_BIN"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(why)
        pytest.skip(why)
    return path


@pytest.fixture(scope="session")
def cli(cli_program):
    """Runs the native `tafl` with arguments and returns its JSON output."""

    def run(*args):
        out = subprocess.run([str(cli_program), *map(str, args)], check=True, capture_output=True, text=True)
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
