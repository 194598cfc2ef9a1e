"""The `vzero.Game` API on its own: errors as exceptions with the CLI's messages, copies,
actions and moves, position text, encoding into a caller's buffer, and the board text."""

import copy
import numpy as np
import pytest
from conftest import random_game, longest_wait_beside

import vzero

MATE_IN_ONE = "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60"


def test_the_variants_and_their_shapes():
    assert vzero.variants() == ["glinski", "mini-hexchess", "wellisch", "weltschach"]
    shapes = {v: vzero.Game(v).input_shape for v in vzero.variants()}
    assert shapes["glinski"] == (16, 11, 11) and shapes["mini-hexchess"] == (13, 7, 7)
    assert len(shapes["weltschach"]) == 4
    assert [vzero.Game(v).num_players for v in vzero.variants()] == [2, 2, 3, 2]
    assert "91" in vzero.variant_summary("glinski")


def test_bad_input_raises_with_the_cli_message():
    with pytest.raises(ValueError, match=r"unknown variant 'chess' \(expected one of: glinski"):
        vzero.Game("chess")
    with pytest.raises(vzero.PositionError, match="bad position text"):
        vzero.Game("glinski", "not a position")
    game = vzero.Game("mini-hexchess")
    before = game.text()
    with pytest.raises(vzero.IllegalMoveError, match="cannot read move 'nonsense'"):
        game.play("nonsense")
    with pytest.raises(vzero.IllegalMoveError, match="illegal move 'd2-d4'"):
        game.play("d2-d4")
    with pytest.raises(vzero.IllegalMoveError, match="illegal action 0: no legal move has that policy index"):
        game.play(0)
    with pytest.raises(vzero.IllegalMoveError, match="illegal action -1"):
        game.move_of(-1)
    with pytest.raises(TypeError, match="expected move text or an action"):
        game.play(2.5)
    assert game.text() == before, "a refused move leaves the game as it was"
    assert issubclass(vzero.IllegalMoveError, ValueError) and issubclass(vzero.PositionError, ValueError)


def test_a_finished_game_refuses_moves_and_says_why():
    game = vzero.Game("glinski", MATE_IN_ONE)
    assert game.outcome() is None and game.ending() is None and not game.is_terminal()
    game.play("c6-a6")
    assert game.outcome() == (1.0, 0.0)
    assert game.ending() == "checkmate" and game.is_terminal()
    assert game.legal_moves() == [] and game.legal_actions().shape == (0,)
    with pytest.raises(vzero.IllegalMoveError, match=r"the game is over: checkmate \(final scores 1 0\)"):
        game.play("a6-a7")


def test_actions_and_moves_name_each_other():
    for variant in vzero.variants():
        game = vzero.Game(variant)
        moves, actions = game.legal_moves(), game.legal_actions()
        assert actions.dtype == np.int64 and len(moves) == len(actions) == len(set(actions.tolist()))
        assert all(0 <= a < game.policy_size for a in actions)
        assert [game.action_of(m) for m in moves] == actions.tolist()
        assert [game.move_of(int(a)) for a in actions] == moves
        mask = game.legal_action_mask()
        assert mask.dtype == np.int8 and mask.shape == (game.policy_size,)
        assert np.flatnonzero(mask).tolist() == sorted(actions.tolist())
        by_text, by_action = game.copy(), game.copy()
        by_text.play(moves[-1])
        by_action.apply_action(np.int32(actions[-1]))
        assert by_text.text() == by_action.text() and by_text.hash == by_action.hash


def test_copies_are_independent_and_text_round_trips():
    moves, _ = random_game("wellisch", seed=3, max_plies=40)
    game = vzero.Game("wellisch")
    for mv in moves[:20]:
        game.play(mv)
    twin = game.copy()
    assert copy.deepcopy(game).text() == twin.text() == game.text()
    twin.play(twin.legal_moves()[0])
    assert twin.text() != game.text() and twin.hash != game.hash
    again = vzero.Game("wellisch", game.text())
    assert again.text() == game.text() and again.hash == game.hash and again.to_move == game.to_move
    assert repr(game) == f'vzero.Game("wellisch", "{game.text()}")'


def test_encode_writes_into_the_callers_buffer():
    game = vzero.Game("glinski")
    game.play("f5-f6")
    planes = game.encode()
    assert planes.dtype == np.float32 and planes.shape == game.input_shape
    buffer = np.full((4, *game.input_shape), np.nan, dtype=np.float32)
    written = game.encode(out=buffer[2])
    assert np.shares_memory(written, buffer), "the planes are written in place, not copied"
    assert np.array_equal(buffer[2], planes) and np.isnan(buffer[1]).all()
    with pytest.raises(ValueError, match="the planes are 1936"):
        game.encode(out=np.zeros(10, dtype=np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        game.encode(out=np.zeros((16, 11, 22), dtype=np.float32)[:, :, ::2])


def test_encode_refuses_every_buffer_that_is_not_c_contiguous():
    # A Fortran-ordered array or a transposed view is contiguous memory in another order: written
    # as if it were C order, its planes would come out scrambled, so it is refused like a stride.
    game = vzero.Game("glinski")
    game.play("f5-f6")
    shape = game.input_shape
    fortran = np.full(shape, np.nan, dtype=np.float32, order="F")
    transposed = np.full(shape[::-1], np.nan, dtype=np.float32).T
    for out in (fortran, transposed):
        assert out.shape == shape and not out.flags.c_contiguous
        with pytest.raises(ValueError, match="out must be a C-contiguous float32 array"):
            game.encode(out=out)
        assert np.isnan(out).all(), "a refused buffer is left untouched"
    assert np.array_equal(game.encode(out=np.ascontiguousarray(fortran)), game.encode())


def test_perft_counts_the_legal_move_tree():
    game = vzero.Game("mini-hexchess")
    children = 0
    for mv in game.legal_moves():
        child = game.copy()
        child.play(mv)
        children += len(child.legal_moves())
    assert game.perft(1) == len(game.legal_moves())
    assert game.perft(2) == children


def test_perft_releases_the_gil():
    game = vzero.Game("glinski")
    assert longest_wait_beside(lambda: game.perft(4)) < 0.5


def test_the_board_text_marks_the_last_move():
    game = vzero.Game("mini-hexchess")
    assert "*" not in game.board()
    game.play("d3-d4")
    board = game.board()
    assert "d3*." in board and "d4*P" in board and str(game) == board
