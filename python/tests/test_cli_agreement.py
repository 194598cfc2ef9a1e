"""The module against the `vzero` command-line program on the same positions: random games of
every variant, and at a few of their positions the legal moves (`vzero perft --divide`), the
position text and mover (`vzero analyse --json`), the encoded planes and policy indices (`vzero
encode`), and at their ends the result (`vzero analyse` refuses a finished game, naming the rule
and the scores)."""

import json
import re

import numpy as np
import pytest
from conftest import random_game, replay, run_all, run_cli

import vzero

# Games per variant and live positions checked per game. Weltschach's random games run to about
# 4000 plies, too long to look for wins at every ply: they are played purely at random.
GAMES = {"glinski": 2, "mini-hexchess": 2, "wellisch": 2, "weltschach": 1}
POSITIONS_PER_GAME = 2

OVER = re.compile(r"--(?:moves|position): the game is over: (.*) \(final scores ([0-9. ]+)\)")


def perft_divide(variant, moves):
    """`vzero perft --divide` at depth 1: the legal moves in the CLI's order."""
    out = run_cli("perft", variant, "1", "--divide", "--moves", " ".join(moves)).stdout
    lines = out.strip().splitlines()
    assert lines[-1].startswith("nodes "), out
    return [line.rsplit(": ", 1)[0] for line in lines[:-1]]


def analyse(variant, moves):
    """`vzero analyse --json` with the uniform evaluator and one simulation: the position."""
    done = run_cli("analyse", "--variant", variant, "--model", "none", "--sims", "1", "--json", "--moves", " ".join(moves))
    return json.loads(done.stdout)


def analyse_finished(variant, moves):
    """`vzero analyse` on a finished game: the rule and final scores of its refusal (a usage error)."""
    done = run_cli("analyse", "--variant", variant, "--model", "none", "--sims", "1", "--moves", " ".join(moves), ok=False)
    assert done.returncode == 2, done.stderr
    found = OVER.search(done.stderr)
    assert found, done.stderr
    return found.group(1), tuple(float(s) for s in found.group(2).split())


def encode(variant, moves, out):
    """`vzero encode`'s three files for the position."""
    run_cli("encode", "--variant", variant, "--moves", " ".join(moves), "--out", str(out))
    legal = json.loads((out / "legal_moves.json").read_text())
    about = json.loads((out / "position.json").read_text())
    return np.load(out / "planes.npy"), legal, about


def check_live(variant, moves, tmp_path):
    game = replay(variant, moves)
    cli_moves, report, (planes, legal, about) = run_all(
        [
            lambda: perft_divide(variant, moves),
            lambda: analyse(variant, moves),
            lambda: encode(variant, moves, tmp_path / f"ply{len(moves)}"),
        ]
    )
    where = f"{variant} after {len(moves)} plies"
    assert game.legal_moves() == cli_moves, where
    assert report["position"] == game.text(), where
    assert report["to_move"] == game.to_move, where
    assert planes.shape == (1, *game.input_shape), where
    assert planes.dtype == np.float32
    assert np.array_equal(planes[0], game.encode()), f"{where}: planes differ from vzero encode's"
    assert [e["move"] for e in legal] == game.legal_moves(), where
    assert [e["policy_index"] for e in legal] == game.legal_actions().tolist(), where
    assert about["position"] == game.text() and about["game_over"] is None, where


def check_end(variant, moves):
    game = replay(variant, moves)
    ending, scores = analyse_finished(variant, moves)
    where = f"{variant}, game over after {len(moves)} plies"
    assert game.ending() == ending, where
    assert game.outcome() == pytest.approx(scores), where
    assert game.legal_moves() == [] and len(game.legal_actions()) == 0, where


@pytest.mark.parametrize("variant", vzero.variants())
def test_random_games_agree_with_the_cli(variant, tmp_path):
    rng = np.random.default_rng(25)
    endings = set()
    for g in range(GAMES[variant]):
        moves, final = random_game(variant, seed=100 * g + 7, take_wins=variant != "weltschach")
        assert final.is_terminal()
        endings.add(final.ending())
        for ply in sorted(rng.choice(len(moves), size=POSITIONS_PER_GAME, replace=False)):
            check_live(variant, moves[:ply], tmp_path)
        check_end(variant, moves)
    print(f"{variant}: endings {sorted(endings)}")


def test_perft_agrees_with_the_cli():
    for variant in vzero.variants():
        depth = "2" if variant == "weltschach" else "3"
        out = run_cli("perft", variant, depth).stdout
        nodes = int(out.strip().splitlines()[-1].split()[1])
        assert vzero.Game(variant).perft(int(depth)) == nodes, variant


@pytest.mark.parametrize(
    "position",
    [
        "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60",
    ],
)
def test_a_checkmate_ends_as_the_cli_says(position):
    game = vzero.Game("glinski", position)
    game.play("c6-a6")
    done = run_cli("analyse", "--variant", "glinski", "--position", position, "--moves", "c6-a6", "--model", "none", ok=False)
    ending, scores = OVER.search(done.stderr).groups()
    assert game.ending() == ending == "checkmate"
    assert game.outcome() == (1.0, 0.0) == tuple(float(s) for s in scores.split())
    assert game.ending_text() == "Checkmate: Black is mated, White wins."
