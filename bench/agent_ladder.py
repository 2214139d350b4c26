"""Random vs greedy vs MCTS on every shipped game, from fixed seeds: who beats whom, by how much.

    python bench/agent_ladder.py [--quick] [--out /tmp/ladder] [--workers 2]

Runs `pnp simulate DESIGN --json` (the command a user runs) for:
* each agent playing every seat (first-seat advantage and game length under that agent);
* each pair of agents in both seat orders (skill: the stronger agent's share of the games,
  with its 95% Wilson interval, seats balanced).
Cooperative games (TriLOOPite) compare the team result of each agent instead.
Every command and its JSON are kept under --out; the summary is printed as a table.
Needs the [ai] extra for the mcts rows. Takes about half an hour on 2 cores (--quick: minutes).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from pnp.simulate import wilson

# (design, players, games for random/greedy rows, games per seat order for greedy vs random, mcts budget,
#  mcts games per seat order against greedy (half that against random), mcts games on every seat)
GAMES = [
    ("three-stars", 2, 400, 100, 200, 40, 20),
    ("three-stars-lozenge", 2, 400, 100, 200, 30, 10),
    ("tubo", 2, 400, 100, 200, 50, 20),
    ("ishi-hama", 2, 100, 25, 200, 4, 0),
    ("triloopite", 3, 400, 0, 100, 0, 8),
]



def simulate(out: Path, design: str, players: int, agent: str, games: int, workers: int, seed: int = 1) -> dict:
    name = f"{design}-{players}p-{agent.replace(':', '').replace(',', '-vs-')}-n{games}"
    path = out / f"{name}.json"
    cmd = ["pnp", "simulate", design, "--players", str(players), "--agent", agent, "-n", str(games),
           "--seed", str(seed), "--json", "--workers", str(workers)]
    if not path.exists():
        start = time.perf_counter()
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{res.stdout}{res.stderr}")
        data = json.loads(res.stdout)
        data["_command"] = " ".join(cmd)
        data["_seconds"] = round(time.perf_counter() - start, 1)
        path.write_text(json.dumps(data, indent=1))
    return json.loads(path.read_text())


def seat_line(d: dict) -> str:
    seats = ", ".join(f"seat {s['seat']} {s['win_rate']:.0%} [{s['ci95'][0]:.0%}-{s['ci95'][1]:.0%}]" for s in d["seats"])
    ln = d["length"]
    capped = f", {d['capped']} capped" if d.get("capped") else ""
    return f"{seats}; draws {d['draws']}/{d['games']}{capped}; length mean {ln['mean']:.1f} (median {ln['median']:g})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("/tmp/pnp-ladder"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="a tenth of the games (a smoke run)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    q = 10 if args.quick else 1
    for design, players, n_self, n_pair, budget, n_mcts, n_mcts_self in GAMES:
        mcts = f"mcts:{budget}"
        print(f"\n== {design}, {players} players", flush=True)
        coop = design == "triloopite"
        for agent, n in (("random", n_self), ("greedy", n_self), (mcts, n_mcts_self)):
            if not n:
                continue
            n = max(2, n // q)
            d = simulate(args.out, design, players, agent, n, args.workers)
            if coop:
                m = [v for k, v in d["metrics"].items() if k == "score"]
                team = d["seats"][0]
                print(f"  {agent:<9} x{players}: team result {team['mean_result']:.1f} "
                      f"[{team['mean_result_ci95'][0]:.1f}, {team['mean_result_ci95'][1]:.1f}]"
                      + (f", score mean {m[0]['mean']:.1f}" if m else "") + f"  ({n} games, {d['_seconds']} s)")
            else:
                print(f"  {agent:<9} every seat: {seat_line(d)}  ({n} games, {d['_seconds']} s)", flush=True)
        if coop or not n_pair:
            continue
        for strong, weak, n in (("greedy", "random", n_pair), (mcts, "random", max(2, n_mcts // 2)),
                                (mcts, "greedy", n_mcts)):
            n = max(2, n // q)
            a = simulate(args.out, design, players, f"{strong},{weak}", n, args.workers)
            b = simulate(args.out, design, players, f"{weak},{strong}", n, args.workers)
            k = a["seats"][0]["wins"] + b["seats"][1]["wins"]
            lost = a["seats"][1]["wins"] + b["seats"][0]["wins"]
            total = a["games"] + b["games"]
            lo, hi = wilson(k, total)
            print(f"  {strong} vs {weak}: {strong} wins {k}/{total} = {k / total:.0%} [{lo:.0%}, {hi:.0%}], "
                  f"{weak} wins {lost}, draws {total - k - lost}  ({a['_seconds'] + b['_seconds']:.0f} s)", flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
