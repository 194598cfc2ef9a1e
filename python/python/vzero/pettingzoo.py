"""PettingZoo AEC environments of the vzero variants: ``vzero.pettingzoo.env("glinski")``.

Agents are ``player_0`` .. ``player_{n-1}`` in seat order (White first; Wellisch has three).
The agent to move observes a dict:

- ``observation``: the encoded planes (``Game.encode()``, float32 ``Game.input_shape``) from its
  own point of view, exactly what a vzero network sees; values in [0, 1], except Wellisch's
  reserve counts (0 to 3: a seat's captured knights, rooks or queen);
- ``action_mask``: int8 of ``Game.policy_size``, 1 at each legal action.

Actions are policy indices (``Discrete(policy_size)``). An agent that is not to move observes
the same planes (the position as the mover sees it) with an all-zero mask.

Rewards come only when the game ends: each agent gets ``2 * score - 1`` for its final score in
[0, 1], so a win is +1, a draw 0 and a loss -1 for two players (Glinski's stalemate, 3/4 and 1/4,
is +1/2 and -1/2). For Wellisch the winner (who captured a king) gets +1, the player whose king
was captured -1 and the third 0, and a draw is 0 for all: the rewards of every game sum to 0.
``max_plies`` (default none) truncates longer games, with no reward.

``SearchAgent`` plays an environment's agent to move with ``vzero.search``: your network (or the
uniform evaluator) and the default search, every search setting a keyword.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import Game, search, search_settings, variant_summary


# The largest value of any input plane where it is not 1: Wellisch's reserve planes count a seat's
# captured pieces of one kind, at most its three knights (rules/src/wellisch/encode.rs).
PLANES_MAX = {"wellisch": 3.0}


def env(variant: str, render_mode: str | None = None, max_plies: int | None = None) -> "VzeroEnv":
    """The AEC environment of ``variant`` (a name from ``vzero.variants()``)."""
    return VzeroEnv(variant, render_mode=render_mode, max_plies=max_plies)


class VzeroEnv(AECEnv):
    """One vzero variant as a turn-based PettingZoo environment (see the module's doc)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "vzero_v0", "is_parallelizable": False}

    def __init__(self, variant: str, render_mode: str | None = None, max_plies: int | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']}")
        if max_plies is not None and max_plies < 1:
            raise ValueError(f"max_plies = {max_plies}: expected at least 1")
        self.game = Game(variant)
        self.variant = self.game.variant
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.metadata = dict(self.metadata, name=f"vzero_{self.variant.replace('-', '_')}_v0")
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        shape = tuple(self.game.input_shape)
        size = self.game.policy_size
        high = PLANES_MAX.get(self.variant, 1.0)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=high, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
            }
        )
        # One space object per agent, the same one at every call (the API test checks identity).
        self._observation_spaces = {a: observation for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._plies = 0

    def __str__(self) -> str:
        return f"vzero.pettingzoo.env({self.variant!r}): {variant_summary(self.variant)}"

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game from the start position (``seed`` and ``options`` change nothing: the rules
        have no chance)."""
        self.game = Game(self.variant)
        self._plies = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.to_move]

    def observe(self, agent):
        planes = self.game.encode()
        if agent == self.agent_selection and not self.game.is_terminal():
            mask = self.game.legal_action_mask()
        else:
            mask = np.zeros(self.game.policy_size, dtype=np.int8)
        return {"observation": planes, "action_mask": mask}

    def step(self, action):
        """Plays ``action`` (a legal policy index) for the agent to move."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.play(int(action))
        self._plies += 1
        self._cumulative_rewards[agent] = 0.0
        scores = self.game.outcome()
        if scores is not None:
            for seat, a in enumerate(self.agents):
                self.rewards[a] = 2.0 * scores[seat] - 1.0
                self.terminations[a] = True
                self.infos[a] = {"ending": self.game.ending()}
        elif self.max_plies is not None and self._plies >= self.max_plies:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self.agents[self.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The board as text (``render_mode="ansi"`` returns it, ``"human"`` prints it)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human' to env()")
            return None
        text = self.game.board()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


class SearchAgent:
    """A player for a ``VzeroEnv``: ``vzero.search`` of the position with ``evaluate`` (your
    network, ``evaluate(planes) -> (logits, values)``; None: the uniform evaluator) at
    ``simulations`` a move. It searches as ``vzero analyse`` does by default (the tactical judge
    in the tree); every keyword of ``vzero.search`` and every search setting
    (``vzero.search_settings()``: ``tactical_prior=0``, ``choice="visits"``, ...) changes that."""

    def __init__(self, evaluate=None, simulations: int = 64, **settings):
        known = {s["key"] for s in search_settings()} | {
            "max_in_flight", "temperature", "win_checks", "seed", "max_batch",
        }
        unknown = sorted(set(settings) - known)
        if unknown:
            raise TypeError(f"SearchAgent got an unexpected keyword argument {unknown[0]!r}")
        self.evaluate = evaluate
        self.simulations = simulations
        self.settings = settings

    def __call__(self, env: VzeroEnv) -> int:
        """The action (a policy index) for the agent to move in ``env``."""
        game = env.game
        evaluate = self.evaluate or _uniform(game.policy_size, game.num_players)
        return search(game, evaluate, self.simulations, **self.settings).chosen_action


def _uniform(policy_size: int, players: int):
    """Equal logits and a draw for every seat: the command line's uniform evaluator."""

    def evaluate(planes):
        n = planes.shape[0]
        return np.zeros((n, policy_size), np.float32), np.full((n, players), 0.5, np.float32)

    return evaluate
