#!/usr/bin/env python3
"""Runs an engine command and logs every line between it and its host.

    log_pipe.py LOG NAME -- COMMAND [ARGS...]

Each line the host writes to the engine is appended to LOG as `NAME < line`, and each line the
engine writes back as `NAME > line`, in the order this process sees them; the lines pass through
unchanged. Two engines may share one LOG (each line is written whole, with the file opened for
appending), so a game refereed by `tafl match` logs both sides in turn.
"""

import ctypes
import signal
import subprocess
import sys
import threading


def die_with_parent():
    """In the engine's process: be killed when this wrapper dies, as a host kills an engine
    that has run out of time (Linux's PR_SET_PDEATHSIG), so that no engine thinks on for nobody."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit(__doc__)
    log_path, name, command = sys.argv[1], sys.argv[2], sys.argv[4:]
    log = open(log_path, "a", encoding="utf-8", buffering=1)
    lock = threading.Lock()

    def note(direction, line):
        with lock:
            log.write(f"{name} {direction} {line.rstrip(chr(10))}\n")

    child = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
        preexec_fn=die_with_parent,
    )

    def host_to_engine():
        for line in sys.stdin:
            note("<", line)
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except (BrokenPipeError, ValueError):
                break
        try:
            child.stdin.close()
        except (BrokenPipeError, ValueError):
            pass

    threading.Thread(target=host_to_engine, daemon=True).start()
    for line in child.stdout:
        note(">", line)
        sys.stdout.write(line)
        sys.stdout.flush()
    sys.exit(child.wait())


if __name__ == "__main__":
    main()
