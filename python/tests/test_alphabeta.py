"""`vzero.alphabeta`: the classical player's move and score, its limits and errors."""

import pytest
from conftest import longest_wait_beside

import vzero

MATE_IN_ONE = "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60"


def test_it_finds_the_mate_and_scores_it_as_one():
    game = vzero.Game("glinski", MATE_IN_ONE)
    found = vzero.alphabeta(game, 2)
    after = game.copy()
    after.play(found.move)
    assert after.ending() == "checkmate" and after.outcome() == (1.0, 0.0)
    assert found.score >= vzero.MATE - 10 and found.depth == 2 and not found.stopped
    assert found.action == game.action_of(found.move)


def test_every_variant_gets_a_legal_move():
    for variant in vzero.variants():
        game = vzero.Game(variant)
        found = vzero.alphabeta(game, 1)
        assert found.move in game.legal_moves() and found.nodes > 0


def test_a_time_limit_stops_it():
    found = vzero.alphabeta(vzero.Game("glinski"), 30, ms=50)
    assert found.stopped and found.depth < 30


def test_bad_limits_and_finished_games_are_refused():
    game = vzero.Game("mini-hexchess")
    with pytest.raises(ValueError, match="alphabeta: depth 0: expected 1 to 30"):
        vzero.alphabeta(game, 0)
    with pytest.raises(ValueError, match="time limit 0 ms"):
        vzero.alphabeta(game, 3, ms=0)
    over = vzero.Game("glinski", MATE_IN_ONE)
    over.play("c6-a6")
    with pytest.raises(ValueError, match="nothing to search: the game is over: checkmate"):
        vzero.alphabeta(over, 2)


def test_it_releases_the_gil():
    assert longest_wait_beside(lambda: vzero.alphabeta(vzero.Game("glinski"), 30, ms=300)) < 0.5
