"""Random-playout speed of the 3 Stars engine: actions per second on one core.

    python bench/engine_bench.py [--players 2] [--seconds 5] [--design three-stars]

Counts every applied action (player moves and chance draws) over whole seeded random
games; the target is at least 10,000 actions/s for 2-player 3 Stars.
"""

from __future__ import annotations

import argparse
import time

from pnp.engine import load_engine
from pnp.engine.agents import RandomAgent
from pnp.engine.playout import play
from pnp.loader import load_design, resolve_design

TARGET = 10_000


def bench(design: str, players: int, seconds: float) -> tuple[float, int, int]:
    game = load_engine(load_design(resolve_design(design)), players)
    agents = [RandomAgent()] * players
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += len(play(game, agents, games).history)
        games += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, actions, games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--design", default="three-stars")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    rate, actions, games = bench(args.design, args.players, args.seconds)
    verdict = "meets" if rate >= TARGET else "BELOW"
    print(f"{args.design}, {args.players} players: {rate:,.0f} actions/s "
          f"({actions:,} actions in {games} random games; {verdict} the {TARGET:,}/s target)")


if __name__ == "__main__":
    main()
