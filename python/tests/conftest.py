"""Shared helpers of the Python tests: the `vzero` command-line program to check against, and
random games that take a win whenever one is on the board (so that games end decisively)."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import vzero

REPO = Path(__file__).resolve().parents[2]


def vzero_binary() -> Path:
    """The CLI to compare with: $VZERO_BIN, or the release build of this repository."""
    path = Path(os.environ.get("VZERO_BIN", REPO / "target" / "release" / "vzero"))
    if not path.is_file():
        pytest.fail(f"{path}: no vzero binary; build it with `cargo build --release` (or set VZERO_BIN)")
    return path


# `vzero.search` has no tactical judge: it searches as `vzero analyse` does with the tactical
# levers off (docs/training.md, "The tactical search").
PLAIN_SEARCH = ("--tactical-prior", "0", "--tactical-value", "0", "--minimax", "0", "--choice", "visits")
# The same search before the tactical judge, as `vzero.search` keywords: for tests of what the
# search makes of the evaluator's own answers.
PLAIN = {"tactical_prior": 0, "tactical_value": 0, "minimax_weight": 0, "choice": "visits"}


def run_cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
    """Runs `vzero ARGS...`; with `ok`, fails the test unless it exits 0."""
    done = subprocess.run([str(vzero_binary()), *args], capture_output=True, text=True, timeout=300)
    if ok and done.returncode != 0:
        pytest.fail(f"vzero {' '.join(args)[:200]}: exit {done.returncode}: {done.stderr.strip()}")
    return done


def run_all(calls):
    """Runs the zero-argument callables `calls` on a few threads (each mostly waits for a CLI
    process) and returns their results in order."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda call: call(), calls))


def longest_wait_beside(work) -> float:
    """Calls `work()` on another thread while this one loops, and returns the longest this
    thread waited between two turns of its loop, as a share of `work`'s time: small when `work`
    releases the GIL, near 1 when it holds it (this thread cannot run until it returns)."""
    started, times = threading.Event(), {}

    def run():
        times["start"] = time.perf_counter()
        started.set()
        work()
        times["end"] = time.perf_counter()

    worker = threading.Thread(target=run)
    worker.start()
    started.wait()
    # From the work's start: with the GIL held, this thread gets here only once it has returned.
    last, longest = times["start"], 0.0
    while worker.is_alive():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    return longest / (times["end"] - times["start"])


def winning_action(game: vzero.Game):
    """A legal action by which the player to move wins at once, or None."""
    mover = game.to_move
    for action in game.legal_actions():
        after = game.copy()
        after.play(int(action))
        scores = after.outcome()
        if scores is not None and scores[mover] == 1.0:
            return int(action)
    return None


def random_game(variant: str, seed: int, take_wins: bool = True, max_plies: int | None = None):
    """A random game of `variant` to its end (or `max_plies`): the moves as text and the final
    game. With `take_wins`, a move that wins at once is always played."""
    rng = np.random.default_rng(seed)
    game = vzero.Game(variant)
    moves = []
    while not game.is_terminal() and (max_plies is None or len(moves) < max_plies):
        action = winning_action(game) if take_wins else None
        if action is None:
            legal = game.legal_actions()
            action = int(legal[rng.integers(len(legal))])
        moves.append(game.move_of(action))
        game.play(action)
    return moves, game


def replay(variant: str, moves) -> vzero.Game:
    """The game after playing `moves` (text) from the start."""
    game = vzero.Game(variant)
    for mv in moves:
        game.play(mv)
    return game
