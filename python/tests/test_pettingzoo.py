"""The PettingZoo environments: the API test for every variant, rewards from the final scores,
truncation, observations and rendering."""

import warnings

import numpy as np
import pytest
from conftest import winning_action
from pettingzoo.test import api_test

import vzero
import vzero.pettingzoo


@pytest.mark.parametrize("variant", vzero.variants())
def test_the_pettingzoo_api_test_passes(variant):
    env = vzero.pettingzoo.env(variant, render_mode="ansi")
    with warnings.catch_warnings():
        # Dict observations with an action mask draw the API test's advice to use a Box.
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=1000)
    assert env.possible_agents == [f"player_{i}" for i in range(vzero.Game(variant).num_players)]


def play_out(env, seed, take_wins=True):
    """Plays legal actions to the end (wins at once when there are any); returns the game and each
    agent's summed rewards."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        game = env.unwrapped.game
        assert agent == f"player_{game.to_move}"
        mask = observation["action_mask"]
        assert np.flatnonzero(mask).tolist() == sorted(game.legal_actions().tolist())
        assert np.array_equal(observation["observation"], game.encode())
        action = winning_action(game) if take_wins else None
        env.step(action if action is not None else int(rng.choice(np.flatnonzero(mask))))
    return env.unwrapped.game, total


@pytest.mark.parametrize("variant", ["mini-hexchess", "wellisch"])
def test_rewards_are_the_final_scores_centred(variant):
    env = vzero.pettingzoo.env(variant)
    decisive = 0
    for seed in range(4):
        game, total = play_out(env, seed)
        scores = game.outcome()
        assert scores is not None
        assert total == {f"player_{i}": pytest.approx(2 * s - 1) for i, s in enumerate(scores)}
        assert sum(total.values()) == pytest.approx(0.0)
        decisive += max(scores) == 1.0
    assert decisive > 0, "a game must end decisively for the test to bite"


def test_only_the_mover_has_legal_actions():
    env = vzero.pettingzoo.env("wellisch")
    env.reset()
    assert env.agent_selection == "player_0"
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == "player_0")
        assert env.observation_space(agent).contains(env.observe(agent))


def test_max_plies_truncates_without_reward():
    env = vzero.pettingzoo.env("glinski", max_plies=6)
    env.reset()
    plies = 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        plies += 1
    assert plies == 6


def test_render_gives_the_text_board():
    env = vzero.pettingzoo.env("mini-hexchess", render_mode="ansi")
    env.reset()
    env.step(env.unwrapped.game.action_of("d3-d4"))
    assert env.render() == env.unwrapped.game.board() and "d4*P" in env.render()
    with pytest.raises(ValueError, match="render_mode 'rgb'"):
        vzero.pettingzoo.env("mini-hexchess", render_mode="rgb")


def test_a_search_agent_plays_legal_moves_with_the_settings_it_is_given():
    """``SearchAgent`` plays the agent to move with the default search or the settings it is
    given (the search before the judge here), and refuses a setting that does not exist."""
    env = vzero.pettingzoo.env("mini-hexchess", max_plies=12)
    env.reset()
    players = [vzero.pettingzoo.SearchAgent(simulations=8), vzero.pettingzoo.SearchAgent(
        simulations=8, tactical_prior=0, tactical_value=0, minimax_weight=0, choice="visits")]
    plies = 0
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = players[env.game.to_move](env)
        assert env.observe(agent)["action_mask"][action] == 1
        env.step(action)
        plies += 1
    assert plies > 0
    with pytest.raises(TypeError, match="no_such_setting"):
        vzero.pettingzoo.SearchAgent(no_such_setting=1)
    with pytest.raises(ValueError, match="between 0 and 1"):
        vzero.pettingzoo.SearchAgent(simulations=8, tactical_prior=2)(env)
