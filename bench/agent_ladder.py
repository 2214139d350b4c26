"""Random vs greedy vs MCTS on every shipped game, from fixed seeds: who beats whom, by how much.

    python bench/agent_ladder.py [--quick] [--out /tmp/ladder] [--workers 2]

Runs `pnp simulate DESIGN --json` (the command a user runs) for:
* each agent playing every seat (first-seat advantage and game length under that agent);
* each pair of agents in both seat orders (skill: the stronger agent's share of the games,
  with its 95% Wilson interval, seats balanced).
Cooperative games (TriLOOPite) have no seats to win: each agent plays every seat, and two
agents are compared game by game on the same seeds (a game's seed fixes every tile drawn,
whoever plays): the stronger agent's share of the games where the two team results differ,
with its 95% Wilson interval, and the mean difference of the team results with its 95%
interval. Those games are played through pnp.engine.records.game_records (the games `pnp simulate`
plays for the command printed), each game's result kept under --out.
Every command and its JSON are kept under --out; the summary is printed as a table.
Needs the [ai] extra for the mcts rows. Takes about an hour on 2 cores (--quick: minutes).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from pnp.engine.records import game_records
from pnp.loader import resolve_design
from pnp.simulate import mean_interval, wilson

# (design, players, games for random/greedy rows, games per seat order for greedy vs random, mcts budget,
#  mcts games per seat order against greedy (half that against random), mcts games on every seat;
#  a cooperative game: games per agent, compared seed by seed)
GAMES = [
    ("three-stars", 2, 400, 100, 200, 40, 20),
    ("three-stars-lozenge", 2, 400, 100, 200, 30, 10),
    ("tubo", 2, 400, 100, 200, 50, 20),
    ("ishi-hama", 2, 100, 25, 200, 4, 0),
    ("triloopite", 3, 400, 0, 100, 0, 200),
]
COOPERATIVE = {"triloopite"}



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


def team_results(out: Path, design: str, players: int, agent: str, games: int, workers: int, seed: int = 1) -> dict:
    """A cooperative game: each game's team result (every seat plays `agent`), by seed, kept under `out`."""
    path = out / f"{design}-{players}p-{agent.replace(':', '')}-n{games}-games.json"
    if not path.exists():
        start = time.perf_counter()
        recs = game_records(resolve_design(design), players, agent, seed, games, workers)
        path.write_text(json.dumps({
            "command": f"pnp simulate {design} --players {players} --agent {agent} -n {games} --seed {seed}",
            "seconds": round(time.perf_counter() - start, 1),
            "results": {str(r.seed): r.returns[0] for r in recs}}, indent=1))
    return json.loads(path.read_text())


def cooperative(out: Path, design: str, players: int, agents: list[tuple[str, int]], workers: int) -> None:
    """Each agent's team result, then each stronger agent against each weaker one, seed by seed."""
    runs = {}
    for agent, n in agents:
        d = team_results(out, design, players, agent, n, workers)
        runs[agent] = d
        m, lo, hi = mean_interval(list(d["results"].values()))
        print(f"  {agent:<9} x{players}: team result {m:.1f} [{lo:.1f}, {hi:.1f}]  ({n} games, {d['seconds']} s; "
              f"{d['command']})", flush=True)
    names = [a for a, _ in agents]
    for i, weak in enumerate(names):
        for strong in names[i + 1:]:
            a, b = runs[strong]["results"], runs[weak]["results"]
            seeds = sorted(set(a) & set(b), key=int)
            diff = [a[s] - b[s] for s in seeds]
            won = sum(x > 0 for x in diff)
            lost = sum(x < 0 for x in diff)
            lo, hi = wilson(won, won + lost)
            m, dlo, dhi = mean_interval(diff)
            share = won / (won + lost) if won + lost else 0.0
            print(f"  {strong} vs {weak}, same {len(seeds)} seeds: {strong} higher in {won}, lower in {lost}, "
                  f"equal in {len(seeds) - won - lost}: {share:.0%} [{lo:.0%}, {hi:.0%}] of the games that differ; "
                  f"team result {m:+.1f} [{dlo:+.1f}, {dhi:+.1f}]", flush=True)


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
    ap.add_argument("--only", help="one design (e.g. triloopite)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    q = 10 if args.quick else 1
    for design, players, n_self, n_pair, budget, n_mcts, n_mcts_self in GAMES:
        if args.only and design != args.only:
            continue
        mcts = f"mcts:{budget}"
        print(f"\n== {design}, {players} players", flush=True)
        if design in COOPERATIVE:
            cooperative(args.out, design, players, [(a, max(2, n // q)) for a, n in
                                                     (("random", n_self), ("greedy", n_self), (mcts, n_mcts_self))],
                        args.workers)
            continue
        for agent, n in (("random", n_self), ("greedy", n_self), (mcts, n_mcts_self)):
            if not n:
                continue
            n = max(2, n // q)
            d = simulate(args.out, design, players, agent, n, args.workers)
            print(f"  {agent:<9} every seat: {seat_line(d)}  ({n} games, {d['_seconds']} s)", flush=True)
        if not n_pair:
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
