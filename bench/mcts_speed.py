"""MCTS speed on one core: moves per second at mcts:N, every seat searching, and where the time goes.

    python bench/mcts_speed.py [--design three-stars] [--players 2] [--sims 200] [--games 3] [--profile]
                               [--settings "top_k=8"]

Plays `--games` games (seeds 1..) in this one process with `mcts:N` on every seat and reports
the moves per CPU second: all player moves, and the moves that needed a search (more than one
legal action; a forced move costs nothing). The goal of issue 17: 50 moves/s at mcts:200 for
3 Stars. `--profile` prints cProfile's top functions by own time and by cumulative time.
`--settings` tries other SearchSettings (e.g. `top_k=8`: only the 8 best-valued moves become
children; faster, but another search: measure its strength with bench/mcts_tuning.py).
CPU seconds, not wall time: other processes on the machine slow a run down less, but still
some (shared caches); compare versions in alternating runs and say the load.
The whole-process figure a user sees comes from the CLI:

    time pnp simulate three-stars --agent mcts:200 -n 4 --workers 1
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import pstats
import time

from pnp.engine import load_engine
from pnp.engine.agents import MCTSAgent
from pnp.engine.api import CHANCE
from pnp.engine.openspiel_adapter import DEFAULT_SETTINGS, SearchSettings
from pnp.engine.playout import rngs
from pnp.loader import load_design, resolve_design


def settings_of(text: str) -> SearchSettings:
    """'top_k=8;temperature=0.5' -> SearchSettings with those fields changed."""
    kinds = {f.name: f.type for f in dataclasses.fields(SearchSettings)}
    changed = {}
    for part in text.split(";"):
        k, v = (x.strip() for x in part.split("=", 1))
        changed[k] = {"float": float, "int": int}.get(str(kinds[k]), str)(v)
    return dataclasses.replace(DEFAULT_SETTINGS, **changed)


def play_counting(game, agents, seed: int) -> tuple[int, int]:
    """(player moves, searched moves) of one game."""
    chance, agent_rng = rngs(seed)
    s = game.new_initial_state()
    moves = searched = 0
    while not s.is_terminal():
        p = s.current_player()
        if p == CHANCE:
            s.apply_action(s.sample_chance(chance))
            continue
        if len(s.legal_actions()) > 1:
            searched += 1
        s.apply_action(agents[p].step(s, agent_rng))
        moves += 1
    return moves, searched


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--design", default="three-stars")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--sims", type=int, default=200)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--settings", default="", help="SearchSettings fields, e.g. 'top_k=8;c=0.7' (default: the "
                    "agent's defaults)")
    args = ap.parse_args()
    design = load_design(resolve_design(args.design))
    players = args.players or design.meta.players.min
    game = load_engine(design, players)
    agent = MCTSAgent(args.sims, game, settings_of(args.settings) if args.settings else None)
    prof = cProfile.Profile() if args.profile else None
    moves = searched = 0
    start = time.process_time()
    if prof:
        prof.enable()
    for seed in range(1, args.games + 1):
        m, s = play_counting(game, [agent] * players, seed)
        moves += m
        searched += s
    if prof:
        prof.disable()
    cpu = time.process_time() - start
    print(f"{args.design}, {players} players, mcts:{args.sims} on every seat, {args.games} games: {moves} moves "
          f"({searched} searched) in {cpu:.1f} CPU s: {moves / cpu:.1f} moves/s, {searched / cpu:.1f} searched "
          f"moves/s, {searched * args.sims / cpu:,.0f} simulations/s" + (" (under cProfile)" if prof else ""))
    if prof:
        st = pstats.Stats(prof)
        st.sort_stats("tottime").print_stats(18)
        st.sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
