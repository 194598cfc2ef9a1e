"""Games as text (docs/games.md) from Python: random games of every variant written with
`vzero.write_game` and read back by `vzero.read_games` unchanged, a game the CLI wrote (`vzero
arena --games-out`) read, and broken texts refused naming the line and what failed."""

import pytest
from conftest import random_game, run_cli

import vzero


@pytest.mark.parametrize("variant", vzero.variants())
def test_random_games_read_back_unchanged(variant):
    # Weltschach's random games are long: a part of one, written as unfinished.
    limit = 200 if variant == "weltschach" else None
    moves, game = random_game(variant, seed=11, max_plies=limit)
    seats = [f"seat {s}" for s in range(game.num_players)]
    text = vzero.write_game(
        variant,
        moves,
        seats=seats,
        result=game.outcome(),
        termination=game.ending(),
        tags=[("Event", "test")],
    )
    assert f'[Variant "{variant}"]' in text
    [back] = vzero.read_games(text)
    assert back["variant"] == variant and back["start"] is None
    assert back["moves"] == moves and back["seats"] == seats
    assert back["result"] == (None if game.outcome() is None else list(game.outcome()))
    assert back["termination"] == game.ending() and back["tags"] == {"Event": "test"}


def test_a_start_other_than_the_standard_one_is_kept():
    game = vzero.Game("mini-hexchess")
    game.play("d3-d4")
    text = vzero.write_game("mini-hexchess", ["c5-c4"], start=game.text(), result="*")
    assert f'[Start "{game.text()}"]' in text and "1... c5-c4 *" in text
    [back] = vzero.read_games(text)
    assert back["start"] == game.text() and back["moves"] == ["c5-c4"] and back["result"] is None


def test_the_cli_s_games_read_in_python(tmp_path):
    out = tmp_path / "games.vgn"
    run_cli("arena", "--variant", "mini-hexchess", "random", "greedy", "--games", "4", "--max-plies", "30",
            "--games-out", str(out))
    games = vzero.read_games(out.read_text())
    assert len(games) == 4
    for game in games:
        assert sorted(game["seats"]) == ["greedy", "random"] and game["tags"]["Event"] == "vzero arena"
        assert game["result"] is not None and game["termination"] is not None
        replayed = vzero.Game("mini-hexchess")
        for mv in game["moves"]:
            replayed.play(mv)


def test_broken_texts_say_where_and_why():
    with pytest.raises(vzero.GameTextError, match=r"line 3: move 1 \(White, ply 1\): illegal move 'e5-e6'"):
        vzero.read_games('[Variant "glinski"]\n\n1. e5-e6 *')
    with pytest.raises(vzero.GameTextError, match=r"\[Variant\]: missing"):
        vzero.read_games("1. d3-d4 *")
    assert vzero.read_games("1. d3-d4 *", variant="mini-hexchess")[0]["moves"] == ["d3-d4"]
    with pytest.raises(vzero.GameTextError, match="result: score '2' is outside 0 to 1"):
        vzero.write_game("glinski", [], result="2-0")
    with pytest.raises(vzero.GameTextError, match="the moves do not end the game"):
        vzero.write_game("glinski", ["f5-f6"], result="1-0", termination="checkmate")
    assert issubclass(vzero.GameTextError, ValueError)
