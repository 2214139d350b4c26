"""Engine speed on one core: random playouts (actions/s) and MCTS moves (moves/s).

    python bench/engine_bench.py [--players 2] [--seconds 5] [--design three-stars]
    python bench/engine_bench.py --mcts 200 [--games 3] [--players 2]

Random: counts every applied action (player moves and chance draws) over whole seeded
random games; the target is at least 10,000 actions/s for 2-player 3 Stars.

MCTS (the [ai] extra): times the command a user runs, `pnp simulate DESIGN --agent
mcts:N --workers 1 -n G --json` (every seat searches, one process), whole process, and
divides the player moves by the wall and CPU time; the target is 50 moves/s at 200
simulations a move for 3 Stars. Then it profiles one searched game in this process and
says where the time goes: the engine (pnp/games), OpenSpiel's bot (open_spiel), the
adapter (pnp/engine), or elsewhere.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import subprocess
import sys
import time
from pathlib import Path

from pnp.engine import load_engine
from pnp.engine.agents import RandomAgent
from pnp.engine.playout import play
from pnp.loader import load_design, resolve_design

TARGET = 10_000
MCTS_TARGET = 50


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


def bench_mcts(design: str, players: int, budget: int, games: int) -> None:
    pnp = str(Path(sys.executable).with_name("pnp"))
    cmd = [pnp, "simulate", design, "--players", str(players), "--agent", f"mcts:{budget}", "-n", str(games),
           "--workers", "1", "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    moves = json.loads(out)["actions_counted"]
    verdict = "meets" if moves / wall >= MCTS_TARGET else "BELOW"
    print(f"$ {' '.join(cmd[1:])}")
    print(f"{design}, {players} players, mcts:{budget} on every seat: {moves} moves in {wall:.1f} s wall "
          f"({moves / wall:.1f} moves/s; {moves / cpu:.1f} per CPU second); {verdict} the {MCTS_TARGET} moves/s target")
    # where the time goes, in one searched game in this process
    from pnp.engine.agents import make_agents

    game = load_engine(load_design(resolve_design(design)), players)
    prof = cProfile.Profile()
    prof.enable()
    play(game, make_agents(f"mcts:{budget}", game), 1)
    prof.disable()
    stats = pstats.Stats(prof).stats
    groups = {"engine (pnp/games)": 0.0, "OpenSpiel bots (open_spiel)": 0.0, "adapter (pnp/engine)": 0.0,
              "numpy and the rest": 0.0}
    for (path, _, _), (_, _, tottime, _, _) in stats.items():
        if "/pnp/games/" in path:
            groups["engine (pnp/games)"] += tottime
        elif "open_spiel" in path:
            groups["OpenSpiel bots (open_spiel)"] += tottime
        elif "/pnp/engine/" in path:
            groups["adapter (pnp/engine)"] += tottime
        else:
            groups["numpy and the rest"] += tottime
    total = sum(groups.values()) or 1.0
    print("time by place (profiled game, own time): " + ", ".join(f"{k} {v / total:.0%}" for k, v in groups.items()))
    top = sorted(stats.items(), key=lambda kv: -kv[1][2])[:5]
    print("top functions: " + "; ".join(f"{Path(p).name}:{fn} {t / total:.0%}" for (p, _, fn), (_, _, t, _, _) in top))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--design", default="three-stars")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--mcts", type=int, default=0, metavar="N", help="time mcts:N moves instead of random playouts")
    ap.add_argument("--games", type=int, default=3, help="games of the MCTS run")
    args = ap.parse_args()
    if args.mcts:
        bench_mcts(args.design, args.players, args.mcts, args.games)
        return
    rate, actions, games = bench(args.design, args.players, args.seconds)
    verdict = "meets" if rate >= TARGET else "BELOW"
    print(f"{args.design}, {args.players} players: {rate:,.0f} actions/s "
          f"({actions:,} actions in {games} random games; {verdict} the {TARGET:,}/s target)")


if __name__ == "__main__":
    main()
