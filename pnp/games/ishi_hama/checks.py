"""Ishi-Hama completeness checks, run by `pnp validate`.

Every check compares the components, as their generators print them, with the rule
numbers stated once under the design's `rules:` and the seed's definitions:

* tiles: two colours, `tiles_per_colour` tiles of each (14), `first_player` one of them;
* paths: every tile shows a path from its centre to at least one side (else it can never
  connect);
* board: the tiles are the size of the board's cells, one score slot per point of the game;
* phase 1: every tile can be placed touching no other (41 such cells on 9x9: one colour of
  the chessboard colouring; the largest set of cells no two of which share a side);
* scoring: `tiles_to_opponent` + 1 score tile = `group_size`; each colour keeps at least
  `group_size` tiles in play even after `points_in_game` - 1 points all scored in it, so
  the last point can be scored in either colour;
* simulation: seeded games all end (at most SIMULATION_GAMES of them: enough to show a stall);
  random players seldom connect 5, so besides the requested agent a few greedy games must
  reach the last point.
"""

from __future__ import annotations

from pnp.engine.checks import CheckResult
from pnp.engine.records import game_records
from pnp.errors import DesignError
from pnp.games.ishi_hama.components import BOARD_GENERATOR, TILES_GENERATOR
from pnp.games.ishi_hama.engine import IshiHamaGame, Rules, design_grid, design_kinds, read_rules
from pnp.games.ishi_hama.geometry import mask_name
from pnp.model import Design

GREEDY_GAMES = 10
SIMULATION_GAMES = 50
"""At most this many of the requested seeds (validate's -n) are played, like validate's playability check,
which shares them. The check asks whether games end by the rules, not how often a seat wins (that is
`pnp simulate`'s figure): a design that stalls (too few tiles to form groups, a rule that blocks) stalls
in most games, and even a stall in 6 % of games shows in 50 seeded games 19 times in 20
(1 - 0.94^50 = 0.95); with none seen, fewer than 6 % stall (95 % upper bound, 3/50)."""


def _per_colour(kinds, colour: str) -> list:
    return [k for k in kinds if k.colour_name == colour]


def check_tiles(design: Design, rules: Rules) -> CheckResult:
    colours, kinds = design_kinds(design)
    problems = []
    if len(colours) != 2:
        problems.append(f"{len(colours)} tile colour(s) ({', '.join(colours) or 'none'}); expected 2, one per player")
    if rules.first_player not in colours:
        problems.append(f"rules.first_player is '{rules.first_player}', not a tile colour; expected one of "
                        f"{', '.join(colours)}")
    lines = []
    for col in colours:
        own = _per_colour(kinds, col)
        n = sum(k.count for k in own)
        mix = ", ".join(f"{k.shape} {k.count}" for k in own)
        lines.append(f"{col}: {n} ({mix})")
        if n != rules.tiles_per_colour:
            problems.append(f"{col}: {n} tiles printed ({mix}); rules.tiles_per_colour says {rules.tiles_per_colour}")
    if problems:
        return CheckResult("tiles", False, "the tiles do not match the rules", problems)
    return CheckResult("tiles", True, f"{rules.tiles_per_colour} tiles per colour as the rules state: "
                       + "; ".join(lines) + f"; {rules.first_player} starts")


def check_paths(design: Design) -> CheckResult:
    _, kinds = design_kinds(design)
    blank = [k for k in kinds if k.mask == 0 and k.count > 0]
    if blank:
        return CheckResult("paths", False, "tiles without a path can never connect",
                           [f"{k.name} ({k.count} printed): no path end; expected a path from the centre to at "
                            "least one side, e.g. paths: [N]" for k in blank])
    shapes = sorted({f"{k.shape} {mask_name(k.mask)}" for k in kinds})
    return CheckResult("paths", True, f"every tile has a path end: {', '.join(shapes)}")


def check_board(design: Design, rules: Rules) -> CheckResult:
    board = next(c for c in design.components.values() if c.generate == BOARD_GENERATOR)
    tiles = next(c for c in design.components.values() if c.generate == TILES_GENERATOR)
    problems = []
    cell, side = board.params.cell, tiles.params.cell
    if abs(cell - side) > 1e-6:
        problems.append(f"tiles of {side:g} mm on cells of {cell:g} mm; expected tiles the size of the board's cells")
    slots = rules.points_in_game if rules.points_in_game <= board.params.rows else board.params.rows
    if slots < rules.points_in_game:
        problems.append(f"the score strips have {slots} slots (one column of {board.params.rows} cells) but "
                        f"rules.points_in_game is {rules.points_in_game}; expected a slot per point")
    if problems:
        return CheckResult("board", False, "the board does not fit the tiles and rules", problems)
    return CheckResult("board", True, f"{board.params.columns}x{board.params.rows} cells of {cell:g} mm like the "
                       f"tiles, a reserve strip and a {slots}-slot score strip per player")


def check_phase1(design: Design) -> CheckResult:
    grid = design_grid(design)
    _, kinds = design_kinds(design)
    tiles = sum(k.count for k in kinds)
    apart = grid.max_apart()
    if tiles > apart:
        return CheckResult("phase 1", False, "phase 1 cannot place every tile",
                           [f"{tiles} tiles but at most {apart} cells of the {grid.columns}x{grid.rows} board can "
                            "hold tiles touching no other; expected at most that many tiles"])
    return CheckResult("phase 1", True, f"all {tiles} tiles can be placed touching none: {apart} such cells on "
                       f"{grid.columns}x{grid.rows} (one colour of the chessboard)")


def check_scoring(design: Design, rules: Rules) -> CheckResult:
    colours, kinds = design_kinds(design)
    problems = []
    if rules.tiles_to_opponent + 1 != rules.group_size:
        problems.append(f"rules.tiles_to_opponent {rules.tiles_to_opponent} + 1 score tile is not "
                        f"rules.group_size {rules.group_size}; expected the whole group removed")
    lost = rules.points_in_game - 1  # score tiles leave the game: at most this many before the last point
    lines = []
    for col in colours:
        n = sum(k.count for k in _per_colour(kinds, col))
        left = n - lost
        lines.append(f"{col} {left}")
        if left < rules.group_size:
            problems.append(f"{col}: {n} tiles; after {lost} points all scored in {col} only {max(left, 0)} stay in "
                            f"play, fewer than a group of {rules.group_size}; expected at least "
                            f"{rules.group_size + lost} tiles")
    if problems:
        return CheckResult("scoring", False, f"not enough tiles stay in play for {rules.points_in_game} points",
                           problems)
    return CheckResult("scoring", True, f"{rules.points_in_game} points of {rules.group_size} tiles "
                       f"({rules.tiles_to_opponent} to the opponent + 1 score tile); after {lost} points in one "
                       f"colour, tiles still in play: {', '.join(lines)} (>= {rules.group_size})")


def _play(design: Design, agent: str, games: int, seed: int) -> tuple[list, list[str]]:
    """Seeded 2-player games on every core (pnp.engine.records.game_records; shared with validate's playability)."""

    try:
        return game_records(design.folder, 2, agent, seed, games), []
    except Exception as exc:  # a broken engine or design: report, never crash validate
        return [], [f"seeds {seed}..{seed + games - 1}: {type(exc).__name__}: {exc}"]


def _summary(results, rules: Rules, agent: str) -> str:
    n = len(results)
    done = sum(1 for r in results if not r.metrics["unfinished"])
    blocked = sum(r.metrics["phase1_blocked"] for r in results)
    turns = sum(r.metrics["turns"] for r in results) / n if n else 0.0
    return (f"{agent}: {done} of {n} reached point {rules.points_in_game}, mean {turns:.1f} turns, "
            f"phase 1 ended by blocking in {blocked}")


def check_simulation(design: Design, rules: Rules, games: int, seed: int, agent: str = "random") -> CheckResult:
    try:
        game = IshiHamaGame(design, 2)
    except DesignError as exc:
        return CheckResult("simulation", False, "the rules engine cannot play this design",
                           [p.message for p in exc.problems])
    asked, games = games, min(games, SIMULATION_GAMES)
    results, failures = _play(design, agent, games, seed)
    problems = list(failures[:5])
    details = [_summary(results, rules, agent)] if results else []
    unfinished = [r.seed for r in results if r.metrics["unfinished"]]
    if agent != "greedy":
        k = min(games, GREEDY_GAMES)
        greedy, fail2 = _play(design, "greedy", k, seed)
        problems += fail2[:5]
        details.append(_summary(greedy, rules, "greedy"))
        stuck = [r.seed for r in greedy if r.metrics["unfinished"]]
    else:
        stuck = unfinished
    if agent != "greedy" and len(unfinished) * 2 > len(results):  # a pass decided by the cap would prove nothing
        problems.append(f"{len(unfinished)} of {len(results)} {agent} game(s) stopped at the {game.max_turns}-turn "
                        f"safety cap before point {rules.points_in_game}: they show nothing about how a game ends")
    if stuck:
        problems.append(f"{len(stuck)} greedy game(s) stopped at the {game.max_turns}-turn cap before point "
                        f"{rules.points_in_game} (seeds {', '.join(map(str, stuck[:8]))})")
    if problems:
        return CheckResult("simulation", False, "seeded games show problems", problems + details)
    note = (f"; {len(unfinished)} {agent} game(s) stopped at the {game.max_turns}-turn safety cap "
            "(random players seldom connect 5)" if unfinished and agent != "greedy" else "")
    of = f" (of the {asked} asked: the check needs no more)" if asked > games else ""
    return CheckResult("simulation", True, f"{games} seeded {agent} games end{of}{note}", details)


def run_checks(design: Design, games: int = 200, seed: int = 1, agent: str = "random") -> list[CheckResult]:
    rules = read_rules(design)
    results = [check_tiles(design, rules), check_paths(design), check_board(design, rules), check_phase1(design),
               check_scoring(design, rules)]
    if games > 0:
        results.append(check_simulation(design, rules, games, seed, agent))
    return results
