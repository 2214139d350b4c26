"""`pnp simulate`: play N seeded games of a design and report what happened.

Generic: the design's game provides the engine through pnp.registry; the report covers
win rate per seat (95% Wilson interval), each seat's mean result (95% interval), game
length, action kinds (as shares of the player actions counted), and the game's own
metrics (each summed, averaged, maximised and counted over games; for 3 Stars:
exchanges, piece shortages, pieces each colour needed, stars scored...). It names the
agents that played (`random`, `greedy`, `mcts:N`, or one per seat such as
`mcts:200,random`; by default the game's own choice, and says so) and flags games
stopped by a safety cap instead of the rules, since their figures describe cut-off
games. Game i uses seed S + i, whichever process or cluster worker plays it
(pnp.distributed), so the same arguments give the same results on any number of
workers, and `--json` prints identical text.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.distributed import run_batches
from pnp.engine import load_engine
from pnp.engine.agents import describe, make_agents, parse_agents
from pnp.engine.playout import play
from pnp.engine.records import DesignFiles, GameRecord, RunInfo, batches
from pnp.engine.replays import load_replay, replay_state
from pnp.errors import NamedFile, PnpError
from pnp.loader import load_design, resolve_design
from pnp.registry import get_game
from pnp.render.svg import Canvas

CAP_MOST = 0.5
"""A report is decided by the safety cap when more than this share of its games were cut off."""


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, mid - half), min(1.0, mid + half))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its 95% normal-approximation interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = statistics.fmean(values)
    if n == 1:
        return (m, m, m)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return (m, m - half, m + half)


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
    agent_source: str = "asked"
    """'asked' (--agent) or 'default' (the game's own choice)."""
    seat_agents: list[str] = field(default_factory=list)
    returns: list[list[float]] = field(default_factory=list)
    """Each seat's results, game by game (seat-major)."""
    capped: int = 0
    """Games stopped by the engine's safety cap, not by the rules."""
    run: RunInfo | None = None

    @property
    def capped_most(self) -> bool:
        return self.games > 0 and self.capped > CAP_MOST * self.games

    def to_dict(self) -> dict[str, Any]:
        n = self.games
        counted = sum(self.kinds.values())
        seats = []
        for p, w in enumerate(self.wins):
            m, lo, hi = mean_interval(self.returns[p]) if self.returns else (0.0, 0.0, 0.0)
            seats.append({"seat": p + 1, "name": self.seat_names[p],
                          "agent": self.seat_agents[p] if self.seat_agents else self.agent,
                          "wins": w, "win_rate": _r(w / n if n else 0.0), "ci95": [_r(x) for x in wilson(w, n)],
                          "mean_result": _r(m), "mean_result_ci95": [_r(lo), _r(hi)]})
        return {
            "design": self.design,
            "title": self.title,
            "players": self.players,
            "games": n,
            "seed": self.seed,
            "agent": self.agent,
            "agent_source": self.agent_source,
            "cooperative": self.cooperative,
            "seats": seats,
            "draws": self.draws,
            "capped": self.capped,
            "decided_by_cap": self.capped_most,
            "length": {
                "mean": _r(statistics.fmean(self.lengths)) if self.lengths else 0,
                "median": _r(statistics.median(self.lengths)) if self.lengths else 0,
                "min": min(self.lengths, default=0),
                "max": max(self.lengths, default=0),
            },
            "actions_counted": counted,
            "actions": {k: {"count": c, "share": _r(c / counted if counted else 0.0), "per_game": _r(c / n if n else 0)}
                        for k, c in sorted(self.kinds.items())},
            "metrics": {k: {**v, "mean": _r(v["total"] / n if n else 0.0)} for k, v in sorted(self.metrics.items())},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)

    def agent_text(self) -> str:
        how = "the game's default" if self.agent_source == "default" else "asked with --agent"
        if self.seat_agents and len(set(self.seat_agents)) > 1:
            seats = ", ".join(f"seat {p + 1} {a}" for p, a in enumerate(self.seat_agents))
            return f"agents {seats} ({how})"
        return f"{self.agent} agents ({how})"

    def to_text(self) -> str:
        d = self.to_dict()
        lines = [f"{self.title} ({self.design}): {self.games} games, {self.players} players, "
                 f"{self.agent_text()}, seeds {self.seed}..{self.seed + self.games - 1}"]
        if self.capped:
            share = self.capped / self.games
            lines.append(f"WARNING: {self.capped} of {self.games} games ({share:.0%}) stopped at the engine's safety "
                         "cap, not by the rules: "
                         + ("most figures below describe games cut off, not played out; try a stronger agent"
                            if self.capped_most else "those games count as draws below"))
        if self.cooperative:
            m, lo, hi = mean_interval(self.returns[0]) if self.returns else (0.0, 0.0, 0.0)
            lines.append("cooperative game: the players win or lose together (see the score metrics)")
            lines.append(f"team result: mean {m:.2f}  [{lo:.2f}, {hi:.2f}] (95% interval)")
        else:
            scored = any(r not in (0.0, 1.0) for seat in self.returns for r in seat)
            lines.append("win rate per seat (95% interval)" + (", mean result (95% interval):" if scored else ":"))
            for s in d["seats"]:
                lo, hi = s["ci95"]
                agent = f" {s['agent']:<9}" if self.seat_agents and len(set(self.seat_agents)) > 1 else ""
                mean = (f"  result {s['mean_result']:.2f} [{s['mean_result_ci95'][0]:.2f}, "
                        f"{s['mean_result_ci95'][1]:.2f}]" if scored else "")
                lines.append(f"  seat {s['seat']} {s['name']:<10}{agent} {s['win_rate']:6.1%}  [{lo:.1%}, {hi:.1%}]  "
                             f"{s['wins']} wins{mean}")
            if self.draws:
                lines.append(f"  draws / unfinished: {self.draws}" + (f" ({self.capped} at the safety cap)"
                                                                      if self.capped else ""))
        ln = d["length"]
        lines.append(f"game length (player turns): mean {ln['mean']:.1f}, median {ln['median']:g}, "
                     f"min {ln['min']}, max {ln['max']}")
        if d["actions"]:
            lines.append(f"actions (share of the {d['actions_counted']} player actions counted; per game): "
                         + ", ".join(f"{k} {v['count']} ({v['share']:.1%}; {v['per_game']:.1f})"
                                     for k, v in d["actions"].items()))
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


def resolve_agent(design_game: str | None, agent: str | None) -> tuple[str, str]:
    """(agent spec, 'asked' or 'default'): None means the game's registered default ('random' if none)."""
    if agent is not None:
        return agent, "asked"
    spec = get_game(design_game)
    return (spec.default_agent if spec else "random"), "default"


def summarize(records: Sequence[GameRecord], players: int) -> dict[str, Any]:
    """Wins, draws, lengths, kinds, metrics, returns and capped games of a list of game records."""
    wins = [0] * players
    draws = capped = 0
    lengths: list[int] = []
    kinds: Counter = Counter()
    metrics: dict[str, Counter] = {}
    returns: list[list[float]] = [[] for _ in range(players)]
    for rec in records:
        best = max(rec.returns)
        top = [p for p, r in enumerate(rec.returns) if r == best]
        if len(top) == 1 and len(top) < players:
            wins[top[0]] += 1
        else:
            draws += 1
        for p, r in enumerate(rec.returns):
            returns[p].append(r)
        lengths.append(rec.length)
        kinds.update(rec.kinds)
        capped += 1 if rec.metrics.get("capped") else 0
        for k, v in rec.metrics.items():
            agg = metrics.setdefault(k, Counter(total=0, max=v, games=0))
            agg["total"] += v
            agg["max"] = max(agg["max"], v)  # may stay negative: a score metric's best can be below 0
            agg["games"] += 1 if v else 0
    return {"wins": wins, "draws": draws, "lengths": lengths, "kinds": kinds, "metrics": metrics,
            "returns": returns, "capped": capped}


def simulate(game_arg: str, games: int, players: int | None = None, seed: int = 1, agent: str | None = None,
             progress: Callable[[int], None] | None = None, workers: int | None = None,
             scheduler: str | None = None) -> SimulationResult:
    """Play `games` seeded games of a design (a folder or a name under designs/).

    `agent` None: the game's registered default agent (a game whose random play never
    ends, like Ishi-Hama, says "greedy"), else "random"; one spec for every seat or one
    per seat ("mcts:200,random"). A game whose turns take several decisions reports a
    `turns` metric; game length is then counted in those turns. `workers`: processes
    (default every core); `scheduler`: a Dask scheduler address or "local".
    """
    if games < 1:
        raise PnpError(f"-n {games}: expected at least 1 game")
    folder = resolve_design(game_arg)
    design = load_design(folder)
    spec = get_game(design.game)
    agent, source = resolve_agent(design.game, agent)
    players = design.meta.players.min if players is None else players
    game = load_engine(design, players)  # a wrong player count or a game without engine stops here
    specs = parse_agents(agent, players)
    if any(s.kind == "mcts" for s in specs):
        from pnp.engine.openspiel_adapter import require_openspiel  # noqa: F401  # lazy: optional (ai)
    name = describe(specs)
    work = batches(DesignFiles.read(folder), players, name, seed, games)
    per_batch, run = run_batches(work, workers, scheduler, progress)
    agg = summarize([r for recs in per_batch for r in recs], players)
    return SimulationResult(design=design.slug, title=design.meta.title, players=players, games=games, seed=seed,
                            agent=name, seat_names=[game.player_name(p) for p in range(players)],
                            cooperative=bool(spec and spec.cooperative), agent_source=source,
                            seat_agents=[s.name for s in specs], run=run, **agg)


def run(game_arg: str, games: int, players: int | None, seed: int, agent: str | None, as_json: bool,
        plot: Path | None, workers: int | None = None, scheduler: str | None = None) -> str:
    """What `pnp simulate` prints; a progress bar (rich) shows while stdout is a terminal."""
    target = NamedFile(plot, "--plot") if plot is not None else None  # checked before the games are played
    if sys.stdout.isatty():
        from rich.progress import Progress  # lazy: 31 ms (rich.progress)

        with Progress(transient=True) as bar:
            task = bar.add_task("simulating", total=games)
            result = simulate(game_arg, games, players, seed, agent, progress=lambda k: bar.advance(task, k),
                              workers=workers, scheduler=scheduler)
    else:
        result = simulate(game_arg, games, players, seed, agent, workers=workers, scheduler=scheduler)
    if target is not None:
        target.write(result.to_svg())
    return result.to_json() if as_json else result.to_text()


# --- plot ------------------------------------------------------------------------------------

INK, BAR, LIGHT = "#1a1a1a", "#0072B2", "#9ecae1"


def plot_svg(res: SimulationResult, width: float = 180.0, height: float = 110.0) -> str:
    """Game-length histogram (left) and seat win rates with their 95% intervals (right)."""
    c = Canvas(width, height)
    c.rect(0, 0, width, height, fill="#ffffff")
    capped = f"; {res.capped} stopped at the safety cap" if res.capped else ""
    c.text(6, 8, f"{res.title}: {res.games} games, {res.players} players, {res.agent} agents, seed {res.seed}{capped}",
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


# --- from a replay -----------------------------------------------------------------------------

def from_replay(game_arg: str, replay_path: Path, games: int, seed: int, agent: str | None,
                as_json: bool = False) -> str:
    """A game saved by `pnp play`, replayed by the engine (every action checked): its result when it is over;
    when it is not, `games` seeded continuations from where it stopped, played by the agents, and who wins."""
    design = load_design(resolve_design(game_arg))
    data = load_replay(replay_path)
    state = replay_state(design, data, str(replay_path))
    players = int(data["players"])
    game = load_engine(design, players)
    names = [game.player_name(p) for p in range(players)]
    moves = len(data["actions"])
    out: dict[str, Any] = {"design": design.slug, "replay": str(replay_path), "players": players,
                           "actions": moves, "over": state.is_terminal()}
    if state.is_terminal():
        returns = state.returns()
        out["returns"] = dict(zip(names, returns))
        saved = data.get("returns")
        out["same_as_saved"] = saved is None or [float(x) for x in saved] == [float(x) for x in returns]
        text = (f"{design.meta.title} ({design.slug}): the replay of {replay_path} ({moves} actions) ends with "
                + ", ".join(f"{n} {r:g}" for n, r in zip(names, returns))
                + ("" if out["same_as_saved"] else "; WARNING: the saved result differs (another version of the "
                   "rules or of the design)"))
        return json.dumps(out, indent=2, sort_keys=True) if as_json else text
    agent, _source = resolve_agent(design.game, agent)
    wins = [0] * players
    draws = 0
    for i in range(games):
        result = play(game, make_agents(agent, game), seed + i, start=state)
        for p in result.winners:
            wins[p] += 1
        draws += not result.winners
    out.update({"continuations": games, "seed": seed, "agent": agent, "wins": dict(zip(names, wins)),
                "draws": draws})
    text = (f"{design.meta.title} ({design.slug}): from where {replay_path} stops ({moves} actions), "
            f"{games} games played on by {agent} agents (seeds {seed}..{seed + games - 1}): "
            + ", ".join(f"{n} wins {w} ({w / games:.0%})" for n, w in zip(names, wins))
            + (f", {draws} draws" if draws else ""))
    return json.dumps(out, indent=2, sort_keys=True) if as_json else text
