"""`vzero.search` with evaluators written in Python: the same search as `vzero analyse` (with the
uniform evaluator, for every variant), batches shared between games, the evaluator's contract
(planes in, logits and mover-relative values out), the search options, and errors."""

import json

import numpy as np
import pytest
from conftest import PLAIN, random_game, replay, run_cli

import vzero

MATE_IN_ONE = "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60"


class Uniform:
    """Equal logits and a draw for everyone (the CLI's uniform evaluator), recording batch sizes."""

    def __init__(self, game):
        self.policy_size, self.players = game.policy_size, game.num_players
        self.batches = []

    def __call__(self, planes):
        self.batches.append(planes.shape[0])
        n = planes.shape[0]
        return np.zeros((n, self.policy_size), np.float32), np.full((n, self.players), 0.5, np.float32)


class Opinions:
    """Logits and values that depend on the planes alone (a stand-in network with opinions),
    recording the planes of every call."""

    def __init__(self, game, seed=0, features=16):
        rng = np.random.default_rng(seed)
        size = int(np.prod(game.input_shape))
        self.weights = rng.normal(size=(size, features)).astype(np.float32) * 0.3
        # Each policy index reads one of the features, so a call costs little in any variant.
        self.spread = rng.integers(features, size=game.policy_size)
        self.value_weights = rng.normal(size=(size, game.num_players)).astype(np.float32) * 0.05
        self.calls = []

    def __call__(self, planes):
        self.calls.append(planes.copy())
        flat = planes.reshape(planes.shape[0], -1)
        raw = flat @ self.value_weights
        values = np.exp(raw) / np.exp(raw).sum(axis=1, keepdims=True)
        values *= values.shape[1] / 2  # sums to num_players / 2, as scores do
        return (flat @ self.weights)[:, self.spread], np.clip(values, 0, 1)


@pytest.mark.parametrize("variant", vzero.variants())
def test_the_search_is_vzero_analyses(variant):
    sims = 60 if variant == "weltschach" else 300
    moves, _ = random_game(variant, seed=11, max_plies=6)
    game = replay(variant, moves)
    # `--model none` is known to have no opinion of its own, so its search takes the judged value
    # whole; a Python evaluator's values are opinions to the search. At a share of 1 both do.
    result = vzero.search(game, Uniform(game), sims, max_in_flight=1, tactical_value=1)
    done = run_cli(
        "analyse", "--variant", variant, "--moves", " ".join(moves), "--model", "none", "--sims", str(sims),
        "--threads", "1", "--leaves", "1", "--multipv", "5000", "--json", "--tactical-value", "1",
    )
    report = json.loads(done.stdout)
    cli = {line["move"]: line["visits"] for line in report["moves"]}
    ours = dict(zip(result.moves, result.visits.tolist()))
    assert ours == cli
    assert result.chosen == report["bestmove"]
    assert result.value == pytest.approx(report["values"], abs=1e-6)
    assert result.root_visits == report["nodes"] == sims
    assert result.pv == report["moves"][0]["pv"]


def test_one_game_sends_its_leaves_in_flight_and_the_root_first():
    game = vzero.Game("glinski")
    evaluate = Opinions(game)
    result = vzero.search(game, evaluate, 200, max_in_flight=8)
    assert evaluate.calls[0].shape == (1, *game.input_shape), "the root is evaluated alone first"
    assert np.array_equal(evaluate.calls[0][0], game.encode())
    sizes = [c.shape[0] for c in evaluate.calls]
    assert max(sizes) == 8 and sum(sizes) <= 200
    assert all(c.dtype == np.float32 and c.flags["C_CONTIGUOUS"] for c in evaluate.calls)
    assert result.root_visits == 200 and result.visits.sum() == 199


def test_network_plies_keeps_the_network_near_the_root():
    game = vzero.Game("mini-hexchess")
    root_only, everywhere = Uniform(game), Uniform(game)
    vzero.search(game, root_only, 64, network_plies=1)
    vzero.search(game, everywhere, 64)
    assert sum(root_only.batches) == 1, "the root alone"
    assert sum(everywhere.batches) > 32
    # `auto`, the default, is every ply for a search of so many simulations, as Python's are.
    auto = Uniform(game)
    vzero.search(game, auto, 64, network_plies="auto")
    assert auto.batches == everywhere.batches
    with pytest.raises(ValueError, match="auto or a whole number"):
        vzero.search(game, Uniform(game), 64, network_plies="two")


def test_many_games_share_each_call_and_search_as_they_would_alone():
    games = []
    for seed in range(6):
        moves, _ = random_game("mini-hexchess", seed=seed, max_plies=4)
        games.append(replay("mini-hexchess", moves))
    shared = Opinions(games[0])
    together = vzero.search(games, shared, 64, max_in_flight=4)
    assert isinstance(together, list) and len(together) == 6
    assert max(c.shape[0] for c in shared.calls) > 4, "one call serves several games"
    for game, result in zip(games, together):
        alone = vzero.search(game, Opinions(games[0]), 64, max_in_flight=4)
        assert alone.moves == result.moves and alone.visits.tolist() == result.visits.tolist()
        assert alone.value.tolist() == result.value.tolist()


def test_values_are_seen_from_the_mover_and_reported_by_seat():
    for variant in ["glinski", "wellisch"]:
        game = vzero.Game(variant)
        game.play(game.legal_moves()[0])
        assert game.to_move == 1
        mover_first = np.array([0.75, 0.25, 0.5][: game.num_players], np.float32)

        def evaluate(planes, policy=game.policy_size):
            return np.zeros((len(planes), policy), np.float32), np.tile(mover_first, (len(planes), 1))

        result = vzero.search(game, evaluate, 1, **PLAIN)
        expected = np.roll(mover_first, 1)  # seat 1 to move: its value is entry 0
        assert result.value.tolist() == pytest.approx(expected.tolist())


def test_logits_become_the_priors_over_legal_moves():
    game = vzero.Game("mini-hexchess")
    actions = game.legal_actions()
    logits = np.full(game.policy_size, 50.0, np.float32)  # illegal indices must not count
    logits[actions] = 0.0
    logits[actions[3]] = np.log(3.0)

    def evaluate(planes):
        n = len(planes)
        return np.tile(logits, (n, 1)), np.full((n, 2), 0.5, np.float32)

    result = vzero.search(game, evaluate, 1, win_checks=False, **PLAIN)
    priors = dict(zip(result.actions.tolist(), result.priors.tolist()))
    total = 3.0 + (len(actions) - 1)
    assert priors[int(actions[3])] == pytest.approx(3.0 / total)
    assert priors[int(actions[0])] == pytest.approx(1.0 / total)
    assert np.isnan(result.q).all(), "no move is visited in a one-simulation search"


def test_one_array_answer_is_read_as_logits_then_values():
    game = vzero.Game("wellisch")
    pair = Opinions(game)

    def single(planes):
        logits, values = pair(planes)
        return np.concatenate([logits, values], axis=1).astype(np.float64)

    a = vzero.search(game, pair, 80)
    b = vzero.search(game, single, 80)
    assert a.visits.tolist() == b.visits.tolist() and a.best == b.best


def test_a_winning_move_is_found_at_once():
    game = vzero.Game("glinski", MATE_IN_ONE)
    result = vzero.search(game, Uniform(game), 2)
    assert result.pv[0] == result.best == result.chosen
    game.play(result.best)
    assert game.outcome() == (1.0, 0.0) and game.ending() == "checkmate"


def test_gumbel_root_spends_the_budget_on_sampled_moves():
    game = vzero.Game("glinski")
    result = vzero.search(game, Opinions(game), 64, root="gumbel", gumbel_actions=4, temperature=1.0, seed=5)
    assert result.root_visits == 64
    assert (result.visits > 0).sum() <= 4
    assert result.policy.sum() == pytest.approx(1.0)
    assert result.policy_target().shape == (game.policy_size,)
    assert result.policy_target()[result.actions].tolist() == pytest.approx(result.policy.tolist())


def test_paranoid_and_max_n_search_three_players():
    game = vzero.Game("wellisch")
    for paranoid in [False, True]:
        result = vzero.search(game, Opinions(game), 100, paranoid=paranoid)
        assert result.root_visits == 100 and len(result.value) == 3


def test_noise_and_temperature_follow_the_seed():
    game = vzero.Game("mini-hexchess")
    noisy = [
        vzero.search(game, Uniform(game), 50, dirichlet_epsilon=0.25, seed=s, **PLAIN).priors.tolist() for s in [1, 1, 2]
    ]
    assert noisy[0] == noisy[1] and noisy[0] != noisy[2]
    plain = vzero.search(game, Uniform(game), 50, **PLAIN).priors
    assert np.allclose(plain, plain[0]), "no noise by default"
    chosen = {vzero.search(game, Opinions(game), 30, temperature=1.0, seed=s).chosen for s in range(12)}
    assert len(chosen) > 1, "temperature 1 draws the move"
    assert len({vzero.search(game, Opinions(game), 30, seed=s).chosen for s in range(4)}) == 1


def test_errors_of_the_evaluator_and_the_arguments_reach_python():
    game = vzero.Game("mini-hexchess")

    def boom(planes):
        raise KeyError("from the network")

    with pytest.raises(KeyError, match="from the network"):
        vzero.search(game, boom, 50)
    with pytest.raises(ValueError, match=r"evaluate returned logits of shape \[1, 5\]; expected \[1, 3528\]"):
        vzero.search(game, lambda p: (np.zeros((len(p), 5)), np.zeros((len(p), 2))), 10)
    with pytest.raises(ValueError, match=r"evaluate returned output of shape"):
        vzero.search(game, lambda p: np.zeros((len(p), 7)), 10)
    with pytest.raises(TypeError, match="evaluate must be callable"):
        vzero.search(game, 3, 10)
    with pytest.raises(ValueError, match="search parameter simulations = 0: from 1 to 100000000"):
        vzero.search(game, Uniform(game), 0)
    with pytest.raises(ValueError, match="search parameter root = alpha: puct or gumbel"):
        vzero.search(game, Uniform(game), 10, root="alpha")
    with pytest.raises(TypeError, match="unexpected keyword argument 'simulation'"):
        vzero.search(game, Uniform(game), simulation=10)
    with pytest.raises(ValueError, match="one search takes games of one variant"):
        vzero.search([game, vzero.Game("glinski")], Uniform(game), 10)
    with pytest.raises(TypeError, match=r"search: game 1: expected a vzero.Game"):
        vzero.search([game, "glinski"], Uniform(game), 10)
    over = vzero.Game("glinski", MATE_IN_ONE)
    over.play("c6-a6")
    with pytest.raises(ValueError, match=r"nothing to search: the game is over: checkmate"):
        vzero.search(over, Uniform(over), 10)


def test_every_setting_is_a_keyword_with_its_range():
    """Each setting of the declaration is a keyword: the flagged ones reach the search as the
    command line's flags do, and a value out of its range is refused naming the range."""
    settings = {s["key"]: s for s in vzero.search_settings()}
    assert settings["tactical_prior"]["flag"] == "--tactical-prior"
    assert settings["tactical_prior"]["range"] == "between 0 and 1"
    assert settings["choice"]["default"] == "lcb" and settings["simulations"]["flag"] is None
    game = vzero.Game("mini-hexchess")
    for key, setting in settings.items():
        if setting["flag"] is not None:
            vzero.search(game, Uniform(game), 8, **{key: setting["default"]})
    with pytest.raises(ValueError, match="tactical_prior = 2: expected between 0 and 1"):
        vzero.search(game, Uniform(game), 8, tactical_prior=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'no_such_setting'"):
        vzero.search(game, Uniform(game), 8, no_such_setting=1)


def test_the_plain_search_is_the_command_lines():
    """The search before the tactical judge, asked for by keywords, is `vzero analyse` with the
    same flags."""
    game = replay("glinski", ["f5-f6"])
    plain = {"tactical_prior": 0, "tactical_value": 0, "minimax_weight": 0, "choice": "visits"}
    result = vzero.search(game, Uniform(game), 200, max_in_flight=1, **plain)
    flags = [x for key, value in plain.items() for x in (vzero_flag(key), str(value))]
    done = run_cli(
        "analyse", "--variant", "glinski", "--moves", "f5-f6", "--model", "none", "--sims", "200",
        "--threads", "1", "--leaves", "1", "--multipv", "5000", "--json", *flags,
    )
    cli = {m["move"]: m["visits"] for m in json.loads(done.stdout)["moves"]}
    assert dict(zip(result.moves, result.visits.tolist())) == cli


def vzero_flag(key):
    """The command line's flag of setting `key`."""
    return next(s["flag"] for s in vzero.search_settings() if s["key"] == key)
