"""TriLOOPite completeness checks, run by `pnp validate`.

Every check reads the tiles as the `triloopite.tiles` generator prints them and the
tables under `rules:`:

* start tile: exactly one tile with `start: true` (count 1);
* tile lines: every line joins two edge midpoints 2 apart (gentle arc) or 3 apart
  (straight), no sharp arc, no port used twice, one or two lines a tile;
* scoring tables: the tables read, no overlapping rows;
* loop of 6: a ring of 6 can be laid with the tiles supplied, under the placement rules,
  and the loop analysis finds it (6 tiles, through the start tile);
* bonuses: each of the four bonus configurations can be laid with the varieties
  supplied (pnp.games.triloopite.witnesses), and the analysis awards it;
* simulation: seeded games end (standard game at the fewest and most players, first
  game at the fewest; at most SIMULATION_GAMES each, on every core, shared with validate's
  playability check) and their results lie in the engine's declared range.
"""

from __future__ import annotations

from pnp.engine.agents import make_agent
from pnp.engine.checks import CheckResult
from pnp.engine.playout import play
from pnp.engine.records import GameRecord, game_records
from pnp.errors import DesignError
from pnp.games.triloopite.components import design_varieties
from pnp.games.triloopite.engine import TILES_GENERATOR, TriloopiteGame, design_tiles
from pnp.games.triloopite.geometry import BONUSES, Variety, line_problems
from pnp.games.triloopite.scoring import read_rules
from pnp.games.triloopite.witnesses import WITNESSES, build_witness
from pnp.model import Design
from pnp.parallel import prun

SIMULATION_GAMES = 50
"""At most this many of the requested seeds (validate's -n) are played per setup, on every core; those of the
design's own mode are validate's playability check's, shared. The check asks whether games end by the rules
with results in the engine's declared range (an engine or scoring-table fault), not what the players score
(that is `pnp simulate`'s figure): a fault in 6 % of games shows in 50 seeded games 19 times in 20
(1 - 0.94^50 = 0.95); with none seen, fewer than 6 % are faulty (95 % upper bound, 3/50)."""


def check_start(design: Design) -> CheckResult:
    tiles = design_tiles(design)
    starts = [v for v in tiles if v.start and v.count > 0]
    n = sum(v.count for v in starts)
    if n == 1:
        return CheckResult("start tile", True, f"one start tile ({starts[0].id}, lines "
                           f"{_lines(starts[0])}), placed in the middle of the table")
    if not n:
        return CheckResult("start tile", False, "no start tile; expected exactly one tile variety with "
                           "start: true and count 1 (a crab with a distinct marking)")
    return CheckResult("start tile", False, f"{n} start tiles ({', '.join(f'{v.id} x{v.count}' for v in starts)}); "
                       "expected exactly one (start: true, count 1)")


def _lines(v: Variety) -> str:
    return " + ".join(f"{{{a},{b}}}" for a, b in v.lines)


def check_lines(design: Design) -> CheckResult:
    problems = []
    for cid, spec in design_varieties(design, TILES_GENERATOR):
        lines = [tuple(ln) for ln in spec.lines]
        probs = line_problems(lines)
        if len(lines) > 2:
            probs.append(f"{len(lines)} lines; expected one or two")
        problems += [f"{cid}.{spec.id}: {p}" for p in probs]
    if problems:
        return CheckResult("tile lines", False, "some tiles' lines do not join edge midpoints 2 or 3 apart",
                           problems)
    tiles = design_tiles(design)
    kinds = ", ".join(f"{v.id} {_lines(v)} x{v.count}" for v in tiles)
    return CheckResult("tile lines", True, "every line joins two edge midpoints 2 apart (arc) or 3 apart "
                       "(straight)", [kinds])


def check_tables(design: Design) -> CheckResult:
    rules = read_rules(design)  # DesignError (exit 2) on unreadable tables
    first = rules.longest_loop_points.rows[0].lo if rules.longest_loop_points.rows else 0
    details = [f"loops: {', '.join(f'{r.label}: {r.value}' for r in rules.loop_points.rows)}",
               f"longest loop: {', '.join(f'{r.label}: {r.value}' for r in rules.longest_loop_points.rows)}",
               "bonuses: " + ", ".join(f"{k} +{v}" for k, v in rules.bonuses.items()),
               f"hand penalty: (tiles in hand) ** {rules.hand_penalty_power} per player"]
    if first < 6:
        details.append(f"note: the longest-loop table starts at {first}; no loop is shorter than 6 tiles")
    return CheckResult("scoring tables", True, f"game '{rules.mode}', best possible {rules.max_points} points",
                       details)


def _bag(design: Design) -> tuple[Variety | None, list[Variety]]:
    tiles = design_tiles(design)
    starts = [v for v in tiles if v.start and v.count > 0]
    return (starts[0] if starts else None), [v for v in tiles if not v.start and v.count > 0]


def check_loop_of_6(design: Design) -> CheckResult:
    start, bag = _bag(design)
    if start is None:
        return CheckResult("loop of 6", False, "no start tile to build from")
    desc, make = WITNESSES["loop_of_6"][0]
    built = build_witness(make(), start, bag, description=desc)
    if built.analysis is None:
        return CheckResult("loop of 6", False, f"{desc} cannot be laid with the tiles supplied: {built.problem}")
    lengths = [lp.length for lp in built.analysis.loops]
    if 6 not in lengths:
        return CheckResult("loop of 6", False, f"{desc} was laid but the analysis found loops {lengths}")
    uses = ", ".join(f"{k} x{n}" for k, n in sorted(built.uses.items()))
    return CheckResult("loop of 6", True, f"a ring of 6 is laid from the start tile ({uses}) and closes")


def check_bonuses(design: Design) -> CheckResult:
    start, bag = _bag(design)
    if start is None:
        return CheckResult("bonuses", False, "no start tile to build from")
    crossing = [v.id for v in bag if v.crossing()]
    problems, details = [], []
    for bonus in BONUSES:
        tried = []
        for desc, make in WITNESSES[bonus]:
            built = build_witness(make(), start, bag, description=desc)
            if built.analysis is not None and built.analysis.bonuses[bonus]:
                uses = ", ".join(f"{k} x{n}" for k, n in sorted(built.uses.items()))
                details.append(f"{bonus}: {desc} ({len(built.board.lines)} tiles: start, {uses})")  # type: ignore[union-attr]
                break
            tried.append(f"{desc}: {built.problem or 'laid, but the analysis awards no bonus'}")
        else:
            why = ""
            if bonus in ("figure_eight", "crossing_loops") and not crossing:
                why = ("no tile variety has two lines that cross (such as the T3 cross {0,3}+{1,4} or the T4 "
                       "arc over straight {0,3}+{1,5}); a loop can only cross itself or another loop on one; ")
            problems.append(f"{bonus}: {why}no witness layout can be laid with the varieties supplied")
            problems += [f"  {t}" for t in tried]
    if problems:
        return CheckResult("bonuses", False, "some bonus configurations cannot be made with these tiles",
                           problems + details)
    return CheckResult("bonuses", True, "each of the 4 bonus configurations can be laid with the varieties "
                       f"supplied (crossing tiles: {', '.join(crossing)})", details)


def _games(game: TriloopiteGame, design: Design, games: int, seed: int,
           agent: str) -> list[tuple[int, GameRecord | BaseException]]:
    """(seed, GameRecord or the exception it raised) for seeds `seed`..`seed + games - 1`, on every core.

    The design's own mode goes through pnp.engine.records.game_records, so validate's playability check (which
    plays the registered engine, in that mode) reuses these games; the other mode, or a seed whose game
    raised, is played seed by seed (pnp.parallel.prun) so each failure names its seed."""
    if game.mode == game.rules.mode:
        try:
            return [(r.seed, r) for r in game_records(design.folder, game.players, agent, seed, games)]
        except Exception:  # a broken engine: play seed by seed below, to name the seeds
            pass
    n = game.players

    def one(s: int) -> GameRecord:
        res = play(game, [make_agent(agent) for _ in range(n)], s)
        return GameRecord(seed=s, returns=tuple(res.returns), length=res.length, actions=res.length,
                          kinds=dict(res.kinds), metrics=dict(res.metrics))

    done = prun([lambda s=s: one(s) for s in range(seed, seed + games)])
    return [(s, value) for s, (_, value) in zip(range(seed, seed + games), done, strict=True)]  # type: ignore[misc]


def check_simulation(design: Design, games: int, seed: int, agent: str = "random") -> CheckResult:
    lo, hi = design.meta.players.min, design.meta.players.max
    setups = [("standard", lo)] + ([("standard", hi)] if hi != lo else []) + [("first", lo)]
    asked, games = games, min(games, SIMULATION_GAMES)
    problems, summary = [], []
    for mode, n in setups:
        try:
            game = TriloopiteGame(design, n, mode=mode)
        except DesignError as exc:
            return CheckResult("simulation", False, "the rules engine cannot play this design",
                               [p.message for p in exc.problems])
        scores, loops, longest, hands = [], 0, 0, 0
        for s, res in _games(game, design, games, seed, agent):
            if isinstance(res, BaseException):
                problems.append(f"{mode} game, {n} players, seed {s}: {res}")
                continue
            v = res.returns[0]
            if not game.info.min_utility <= v <= game.info.max_utility:
                problems.append(f"{mode} game, {n} players, seed {s}: result {v} outside "
                                f"[{game.info.min_utility}, {game.info.max_utility}]")
            scores.append(v)
            loops += res.metrics["loops"]
            longest = max(longest, res.metrics["longest_loop"])
            hands += res.metrics["tiles_in_hand"]
        if scores:
            k = len(scores)
            what = "score" if mode == "standard" else "tiles left in hand"
            vals = scores if mode == "standard" else [0.0 - s for s in scores]
            who = f"{n} player{'s' if n > 1 else ''}"
            summary.append(f"{mode} game, {who}: {k} games ended; {what} mean {sum(vals) / k:.1f} "
                           f"(min {min(vals):g}, max {max(vals):g}); {loops / k:.2f} loops a game, longest "
                           f"{longest}; {hands / k:.1f} tiles left in hand")
    if problems:
        return CheckResult("simulation", False, f"seeded {agent} games show problems", problems[:8] + summary)
    of = f" (of the {asked} asked: a fault in 6 % of games shows 19 times in 20)" if asked > games else ""
    return CheckResult("simulation", True, f"{games} seeded {agent} games per setup end{of}", summary)


def run_checks(design: Design, games: int = 200, seed: int = 1, agent: str = "random") -> list[CheckResult]:
    results = [check_start(design), check_lines(design), check_tables(design)]
    lines_ok = results[1].ok
    if lines_ok:
        results += [check_loop_of_6(design), check_bonuses(design)]
    if games > 0:
        if results[0].ok and lines_ok:
            results.append(check_simulation(design, games, seed, agent))
        else:
            results.append(CheckResult("simulation", False, "not run: fix the start tile and the tiles' lines first"))
    return results
