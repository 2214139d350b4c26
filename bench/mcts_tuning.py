"""How each choice of the search agent plays against greedy: win share with its 95% interval, speed.

    python bench/mcts_tuning.py --design three-stars --games 100 --sims 200 \
        "worlds=4" "worlds=0" "prior=uniform" "leaf=greedy:2" ...

Each argument is one variant of pnp.engine.openspiel_adapter.SearchSettings (fields separated
by `;`, e.g. `c=1;temperature=0.3`; `default` for the defaults). A variant plays `--games`
games against greedy, half from each seat, seeds `--seed`.. (the same seeds for every
variant), on `--workers` processes, and reports its share of the games won (draws count
half; for a cooperative game, the mean team result of an all-MCTS table instead), the
95% interval, the game length and the search moves per CPU second.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing
import os
import time

from pnp.engine import load_engine
from pnp.engine.agents import GreedyAgent, MCTSAgent
from pnp.engine.openspiel_adapter import SearchSettings
from pnp.engine.playout import play
from pnp.loader import load_design, resolve_design
from pnp.registry import get_game
from pnp.simulate import wilson


def settings_of(text: str) -> SearchSettings:
    if text == "default":
        return SearchSettings()
    fields = {f.name: f.type for f in dataclasses.fields(SearchSettings)}
    kw = {}
    for part in text.split(";"):
        k, v = part.split("=", 1)
        t = fields[k.strip()]
        kw[k.strip()] = {"float": float, "int": int}.get(t, str)(v.strip())
    return SearchSettings(**kw)


def one(args: tuple) -> tuple:
    design, players, sims, variant, seed, coop = args
    game = load_engine(load_design(resolve_design(design)), players)
    mcts = MCTSAgent(sims, game, settings_of(variant))
    if coop:
        agents = [mcts] * players
        seat = 0
    else:
        seat = seed % players
        agents = [GreedyAgent() for _ in range(players)]
        agents[seat] = mcts
    start = time.process_time()
    res = play(game, agents, seed)
    cpu = time.process_time() - start
    return (res.returns, seat, res.length, cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--design", default="three-stars")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--sims", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    args = ap.parse_args()
    design = load_design(resolve_design(args.design))
    players = args.players or design.meta.players.min
    spec = get_game(design.game)
    coop = bool(spec and spec.cooperative)
    print(f"{args.design}, {players} players, mcts:{args.sims} " + ("on every seat (team result)" if coop else
          "against greedy, seats alternating") + f", {args.games} games from seed {args.seed}", flush=True)
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for variant in args.variants:
            start = time.perf_counter()
            jobs = [(args.design, players, args.sims, variant, args.seed + i, coop) for i in range(args.games)]
            out = pool.map(one, jobs, chunksize=1)
            wall = time.perf_counter() - start
            cpu = sum(o[3] for o in out)
            length = sum(o[2] for o in out) / len(out)
            if coop:
                team = [o[0][0] for o in out]
                m = sum(team) / len(team)
                sd = math.sqrt(sum((x - m) ** 2 for x in team) / max(1, len(team) - 1))
                half = 1.96 * sd / math.sqrt(len(team))
                print(f"  {variant:<40} team {m:6.2f} [{m - half:.2f}, {m + half:.2f}]  length {length:.0f}  "
                      f"{cpu / len(out):.1f} CPU s/game  ({wall:.0f} s)", flush=True)
                continue
            score = 0.0
            for returns, seat, *_ in out:
                best = max(returns)
                top = [p for p, r in enumerate(returns) if r == best]
                if len(top) == len(returns):
                    score += 1 / players  # a draw: an even share
                elif seat in top:
                    score += 1 / len(top)
            lo, hi = wilson(score, len(out))
            print(f"  {variant:<40} mcts {score / len(out):5.1%} [{lo:.0%}, {hi:.0%}]  length {length:.0f}  "
                  f"{cpu / len(out):.1f} CPU s/game  ({wall:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
