"""Speed of vzero through Python, per variant:

- random-game steps per second (``legal_actions()`` and ``play(action)``, one step each);
- ``vzero.search`` simulations per second with a trivial evaluator (equal logits, draws), as
  ``vzero bench mcts`` searches (self-play's parameters, 8 leaves in flight, win checks on), next
  to that command's own figure for the same search in Rust with its uniform evaluator: the ratio
  is what going through Python costs (encoding the leaves, the call, reading the answer back);
- the same with 16 games in one ``vzero.search`` call, whose leaves share each evaluator call.

    python python/bench.py [--simulations N] [--vzero PATH]

Each search figure is the best of three timed runs after an untimed one, as ``bench mcts`` does.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import time
from pathlib import Path

import numpy as np

import vzero

REPO = Path(__file__).resolve().parents[1]
GAMES_TOGETHER = 16
RUNS = 3


def steps_per_second(variant: str, seconds: float = 2.0) -> float:
    """Random-game steps per second: legal_actions() then play() of a random one."""
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = vzero.Game(variant)
        while not game.is_terminal():
            actions = game.legal_actions()
            game.play(int(actions[rng.integers(len(actions))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def trivial_evaluator(game: vzero.Game, most: int):
    """Equal logits and a draw for everyone, from arrays made once."""
    logits = np.zeros((most, game.policy_size), np.float32)
    values = np.full((most, game.num_players), 0.5, np.float32)
    return lambda planes: (logits[: len(planes)], values[: len(planes)])


def search_rate(variant: str, simulations: int, games: int) -> float:
    """Simulations per second of vzero.search over `games` start positions sharing the budget."""
    each = max(1, simulations // games)
    batch = [vzero.Game(variant) for _ in range(games)]
    evaluate = trivial_evaluator(batch[0], 8 * games)
    # `vzero bench mcts`'s search: self-play's parameters (noise, temperature 1 at ply 0, the
    # one-move win checks) with 8 leaves in flight.
    options = dict(max_in_flight=8, dirichlet_epsilon=0.25, temperature=1.0, win_checks=True)
    best = float("inf")
    for run in range(RUNS + 1):
        start = time.perf_counter()
        vzero.search(batch if games > 1 else batch[0], evaluate, each, **options)
        if run > 0:
            best = min(best, time.perf_counter() - start)
    return each * games / best


def bench_mcts(binary: Path, simulations: int) -> dict[str, float]:
    """`vzero bench mcts`'s simulations per second with win checks on, by variant."""
    out = subprocess.run(
        [str(binary), "bench", "mcts", "--simulations", str(simulations)], capture_output=True, text=True, check=True
    ).stdout
    rates, variant = {}, None
    for line in out.splitlines():
        head = re.match(r"(\S+) \(puct root\)", line)
        if head:
            variant = head.group(1)
        rate = re.search(r"win checks on : .* = (\d+) sims/s", line)
        if rate and variant:
            rates[variant] = float(rate.group(1))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=20000, help="simulations per search (default 20000)")
    parser.add_argument("--vzero", type=Path, default=REPO / "target" / "release" / "vzero", help="the vzero binary")
    args = parser.parse_args()
    rust = bench_mcts(args.vzero, args.simulations)
    print(f"{'variant':<14} {'steps/s':>9} {'search sims/s':>14} {'bench mcts':>11} {'ratio':>6} "
          f"{f'{GAMES_TOGETHER} games sims/s':>16} {'ratio':>6}")
    for variant in vzero.variants():
        steps = steps_per_second(variant)
        one = search_rate(variant, args.simulations, 1)
        many = search_rate(variant, args.simulations, GAMES_TOGETHER)
        reference = rust[variant]
        print(f"{variant:<14} {steps:>9.0f} {one:>14.0f} {reference:>11.0f} {one / reference:>6.2f} "
              f"{many:>16.0f} {many / reference:>6.2f}")


if __name__ == "__main__":
    main()
