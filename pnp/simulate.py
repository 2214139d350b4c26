"""`pnp simulate`: play N seeded games of a design and report what happened.

Generic: the design's game provides the engine through pnp.registry; the report covers
win rate per seat (95% Wilson interval), game length, action kinds, and the game's own
metrics (each summed, averaged, maximised and counted over games; for 3 Stars: exchanges, piece
shortages, pieces each colour needed, stars scored...). Game i uses seed S + i, so the
same arguments give the same results, and `--json` prints identical text.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.engine import load_engine
from pnp import registry
from pnp.engine.agents import make_agent
from pnp.engine.playout import play
from pnp.errors import PnpError
from pnp.loader import load_design, resolve_design
from pnp.render.svg import Canvas


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, mid - half), min(1.0, mid + half))


@dataclass
class SimulationResult:
    design: str
    title: str
    players: int
    games: int
    seed: int
    agent: str
    seat_names: list[str]
    wins: list[int]
    draws: int
    lengths: list[int]
    kinds: Counter = field(default_factory=Counter)
    metrics: dict[str, dict[str, int]] = field(default_factory=dict)
    cooperative: bool = False  # the players win or lose together: no seat win rates

    def to_dict(self) -> dict[str, Any]:
        n = self.games
        turns = sum(self.lengths)
        return {
            "design": self.design,
            "title": self.title,
            "players": self.players,
            "games": n,
            "seed": self.seed,
            "agent": self.agent,
            "seats": [
                {"seat": p + 1, "name": self.seat_names[p], "wins": w, "win_rate": _r(w / n if n else 0.0),
                 "ci95": [_r(x) for x in wilson(w, n)]}
                for p, w in enumerate(self.wins)
            ],
            "draws": self.draws,
            "length": {
                "mean": _r(statistics.fmean(self.lengths)) if self.lengths else 0,
                "median": _r(statistics.median(self.lengths)) if self.lengths else 0,
                "min": min(self.lengths, default=0),
                "max": max(self.lengths, default=0),
            },
            "actions": {k: {"count": c, "share": _r(c / turns if turns else 0.0)}
                        for k, c in sorted(self.kinds.items())},
            "metrics": {k: {**v, "mean": _r(v["total"] / n if n else 0.0)} for k, v in sorted(self.metrics.items())},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)

    def to_text(self) -> str:
        d = self.to_dict()
        lines = [f"{self.title} ({self.design}): {self.games} games, {self.players} players, "
                 f"{self.agent} agents, seeds {self.seed}..{self.seed + self.games - 1}"]
        if self.cooperative:
            lines.append("cooperative game: the players win or lose together (see the score metrics)")
        else:
            lines.append("win rate per seat (95% interval):")
        for s in (d["seats"] if not self.cooperative else []):
            lo, hi = s["ci95"]
            lines.append(f"  seat {s['seat']} {s['name']:<10} {s['win_rate']:6.1%}  [{lo:.1%}, {hi:.1%}]  "
                         f"{s['wins']} wins")
        if self.draws and not self.cooperative:
            lines.append(f"  draws / unfinished: {self.draws}")
        ln = d["length"]
        lines.append(f"game length (player turns): mean {ln['mean']:.1f}, median {ln['median']:g}, "
                     f"min {ln['min']}, max {ln['max']}")
        lines.append("actions: " + ", ".join(f"{k} {v['count']} ({v['share']:.1%})" for k, v in d["actions"].items()))
        if d["metrics"]:
            width = max(len(k) for k in d["metrics"])
            lines.append(f"game metrics:{'':<{width - 11}} {'total':>7} {'mean':>7} {'max':>5} {'games>0':>7}")
            for k, v in d["metrics"].items():
                lines.append(f"  {k:<{width}} {v['total']:>7} {v['mean']:>7.2f} {v['max']:>5} {v['games']:>7}")
        return "\n".join(lines)

    def to_svg(self) -> str:
        return plot_svg(self)


def _r(x: float) -> float:
    return round(float(x), 4)


def simulate(game_arg: str, games: int, players: int | None = None, seed: int = 1, agent: str | None = None,
             progress: Callable[[int], None] | None = None) -> SimulationResult:
    """Play `games` seeded games of a design (a folder or a name under designs/).

    `agent` None: the game's registered `default_agent` (a game whose random play never
    ends, like Ishi-Hama, says "greedy"), else "random". A game whose turns take several
    decisions reports a `turns` metric; game length is then counted in those turns.
    """
    if games < 1:
        raise PnpError(f"-n {games}: expected at least 1 game")
    design = load_design(resolve_design(game_arg))
    registered = registry.get_game(design.game) if design.game else None
    if agent is None:
        agent = (registered.default_agent if registered else None) or "random"
    players = design.meta.players.min if players is None else players
    game = load_engine(design, players)
    agents = [make_agent(agent) for _ in range(players)]
    wins = [0] * players
    draws = 0
    lengths: list[int] = []
    kinds: Counter = Counter()
    metrics: dict[str, Counter] = {}
    for i in range(games):
        res = play(game, agents, seed + i)
        winners = res.winners
        if len(winners) == 1:
            wins[winners[0]] += 1
        else:
            draws += 1
        lengths.append(res.metrics.get("turns", res.length))
        kinds.update(res.kinds)
        for k, v in res.metrics.items():
            agg = metrics.setdefault(k, Counter(total=0, max=v, games=0))
            agg["total"] += v
            agg["max"] = max(agg["max"], v)  # may stay negative: a score metric's best can be below 0
            agg["games"] += 1 if v else 0
        if progress:
            progress(1)
    return SimulationResult(design=design.slug, title=design.meta.title, players=players, games=games, seed=seed,
                            agent=agent, seat_names=[game.player_name(p) for p in range(players)], wins=wins,
                            draws=draws, lengths=lengths, kinds=kinds, metrics=metrics,
                            cooperative=bool(registered and registered.cooperative))


def run(game_arg: str, games: int, players: int | None, seed: int, agent: str, as_json: bool,
        plot: Path | None) -> str:
    """What `pnp simulate` prints; a progress bar (rich) shows while stdout is a terminal."""
    if sys.stdout.isatty():
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task("simulating", total=games)
            result = simulate(game_arg, games, players, seed, agent, progress=lambda k: bar.advance(task, k))
    else:
        result = simulate(game_arg, games, players, seed, agent)
    if plot is not None:
        plot.parent.mkdir(parents=True, exist_ok=True)
        plot.write_text(result.to_svg(), encoding="utf-8")
    return result.to_json() if as_json else result.to_text()


# --- plot ------------------------------------------------------------------------------------

INK, BAR, LIGHT = "#1a1a1a", "#0072B2", "#9ecae1"


def plot_svg(res: SimulationResult, width: float = 180.0, height: float = 110.0) -> str:
    """Game-length histogram (left) and seat win rates with their 95% intervals (right)."""
    c = Canvas(width, height)
    c.rect(0, 0, width, height, fill="#ffffff")
    c.text(6, 8, f"{res.title}: {res.games} games, {res.players} players, {res.agent} agents, seed {res.seed}",
           size=3.6, weight="bold", fill=INK)
    # histogram
    x0, y0, w, h = 14.0, 20.0, 92.0, 72.0
    lengths = res.lengths
    lo, hi = min(lengths), max(lengths)
    bins = min(20, max(1, hi - lo + 1))
    step = max(1, math.ceil((hi - lo + 1) / bins))
    counts = Counter((v - lo) // step for v in lengths)
    nb = max(counts) + 1
    top = max(counts.values())
    bw = w / nb
    for b in range(nb):
        k = counts.get(b, 0)
        bh = h * k / top
        c.rect(x0 + b * bw, y0 + h - bh, bw * 0.9, bh, fill=BAR)
    c.line((x0, y0 + h), (x0 + w, y0 + h), stroke=INK, stroke_width=0.3)
    c.line((x0, y0), (x0, y0 + h), stroke=INK, stroke_width=0.3)
    c.text(x0, y0 + h + 5, str(lo), size=2.8, fill=INK)
    c.text(x0 + w, y0 + h + 5, str(lo + nb * step - 1), size=2.8, anchor="end", fill=INK)
    c.text(x0 + w / 2, y0 + h + 10, "game length (player turns)", size=3, anchor="middle", fill=INK)
    c.text(x0 - 2, y0 + 2, str(top), size=2.8, anchor="end", fill=INK)
    c.text(x0 + w / 2, y0 - 4, "games by length", size=3, anchor="middle", fill=INK)
    # win rates
    x1, w1 = 120.0, 54.0
    seats = res.to_dict()["seats"]
    sw = w1 / max(1, len(seats))
    for i, s in enumerate(seats):
        bh = h * s["win_rate"]
        bx = x1 + i * sw + sw * 0.15
        c.rect(bx, y0 + h - bh, sw * 0.7, bh, fill=LIGHT, stroke=BAR, stroke_width=0.3)
        lo_ci, hi_ci = s["ci95"]
        cx = bx + sw * 0.35
        c.line((cx, y0 + h - h * lo_ci), (cx, y0 + h - h * hi_ci), stroke=INK, stroke_width=0.4)
        for v in (lo_ci, hi_ci):
            c.line((cx - 1.5, y0 + h - h * v), (cx + 1.5, y0 + h - h * v), stroke=INK, stroke_width=0.4)
        c.text(cx, y0 + h + 5, s["name"], size=2.8, anchor="middle", fill=INK)
        c.text(cx, y0 + h + 9, f"{s['win_rate']:.0%}", size=2.6, anchor="middle", fill=INK)
    c.line((x1, y0 + h), (x1 + w1, y0 + h), stroke=INK, stroke_width=0.3)
    fair = 1 / max(1, len(seats))
    c.line((x1, y0 + h - h * fair), (x1 + w1, y0 + h - h * fair), stroke="#888888", stroke_width=0.3,
           stroke_dasharray="1,1")
    c.text(x1 + w1 / 2, y0 - 4, "win rate per seat (95% interval)", size=3, anchor="middle", fill=INK)
    return c.to_string()
