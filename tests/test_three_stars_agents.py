"""The agents on 3 Stars: the greedy heuristic plays better than chance."""

from __future__ import annotations

import random

from pnp.engine import load_engine
from pnp.engine.agents import GreedyAgent, RandomAgent
from pnp.engine.playout import play
from pnp.games.three_stars.geometry import star_triangles
from pnp.loader import load_design, package_root


def test_greedy_agent_beats_random():
    """The greedy agent (completes or advances its stars, steals to block) wins most games against random."""
    game = load_engine(load_design(package_root() / "designs" / "three-stars"), 2)
    greedy_wins = 0
    for seed in range(30):
        seat = seed % 2
        agents = [GreedyAgent(), RandomAgent()] if seat == 0 else [RandomAgent(), GreedyAgent()]
        if play(game, agents, seed).winners == [seat]:
            greedy_wins += 1
    assert greedy_wins >= 22


def test_greedy_completes_a_star_when_it_can():
    game = load_engine(load_design(package_root() / "designs" / "three-stars"), 2)
    # blue holds 5 cells of star (1,1) and a card for the sixth, among other options
    state = game.position(owners=dict.fromkeys(star_triangles((1, 1))[1:], 0), hands={0: [(0,), (2, 3), (1, 4, 5)]})
    for seed in range(5):
        trial = state.clone()
        action = GreedyAgent().step(trial, random.Random(seed))
        trial.apply_action(action)
        assert trial.scores[0] == 1, trial.action_to_string(action)  # whichever card it uses, the star is done
