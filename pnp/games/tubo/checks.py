"""TUBO completeness checks, run by `pnp validate`.

Every check compares the components, as their generators print them, with the rule
numbers stated once under the design's `rules:` and the seed's definitions:

* stocks: `rules.stocks` colour stocks (at least players x `stocks_per_player`), each
  holding the 6 two-edge connectors of a square once (`pieces_per_stock`) and
  `close_per_stock` Close pieces;
* fitting pieces: every stock holds a connector meeting a path entering from each side,
  so "no fitting piece" only happens once pieces are used up;
* board and pieces: Start on the board with enough free branches for `path_rounds`
  rounds, pieces the size of the board's cells;
* objective: one Objective piece, cells of `objective_zone` to put it on (Start not
  among them), each reachable from Start within one round's pieces;
* simulation: seeded games (random agents by default) all end, no player is ever left
  without a piece to lay.
"""

from __future__ import annotations

from pnp.engine.agents import make_agent
from pnp.engine.checks import CheckResult
from pnp.engine.playout import play
from pnp.errors import DesignError
from pnp.games.tubo.engine import (
    BOARD_GENERATOR,
    CONNECTORS,
    OBJECTIVE_GENERATOR,
    STOCK_GENERATOR,
    TuboGame,
    design_board,
    design_stocks,
    read_rules,
)
from pnp.games.tubo.geometry import SIDE_NAMES, connector_name, pieces_to_reach
from pnp.model import Design


def _stock_problems(stock, rules) -> list[str]:
    problems = []
    missing = [connector_name(c) for i, c in enumerate(CONNECTORS) if stock.counts[i] == 0]
    extra = [f"{connector_name(c)} x{stock.counts[i]}" for i, c in enumerate(CONNECTORS) if stock.counts[i] > 1]
    if missing:
        problems.append(f"stock '{stock.name}' has {stock.connectors} path pieces, missing {', '.join(missing)}; "
                        f"expected each of the {len(CONNECTORS)} two-edge connectors once")
    if extra:
        problems.append(f"stock '{stock.name}' holds {', '.join(extra)}; expected each connector once")
    if stock.connectors != rules.pieces_per_stock and not missing and not extra:
        problems.append(f"stock '{stock.name}' has {stock.connectors} path pieces; rules.pieces_per_stock says "
                        f"{rules.pieces_per_stock}")
    if stock.closes != rules.close_per_stock:
        problems.append(f"stock '{stock.name}' has {stock.closes} Close piece(s); rules.close_per_stock says "
                        f"{rules.close_per_stock}")
    return problems


def check_stocks(design: Design, rules) -> CheckResult:
    stocks = design_stocks(design)
    players = design.meta.players.max
    need = players * rules.stocks_per_player
    problems = []
    if rules.pieces_per_stock != len(CONNECTORS):
        problems.append(f"rules.pieces_per_stock is {rules.pieces_per_stock}; a square has {len(CONNECTORS)} "
                        "two-edge connectors (the seed's stock of 6)")
    if rules.stocks is not None and len(stocks) != rules.stocks:
        problems.append(f"{len(stocks)} colour stock(s); rules.stocks says {rules.stocks}")
    if len(stocks) < need:
        problems.append(f"{len(stocks)} colour stock(s) for {players} players choosing {rules.stocks_per_player} "
                        f"each; expected at least {need}")
    for s in stocks:
        problems += _stock_problems(s, rules)
    if problems:
        return CheckResult("stocks", False, "the colour stocks do not match the rules", problems)
    return CheckResult("stocks", True, f"{len(stocks)} stocks of {rules.pieces_per_stock} connectors + "
                       f"{rules.close_per_stock} Close, for {players} players x {rules.stocks_per_player}")


def check_fitting(design: Design) -> CheckResult:
    problems = []
    for s in design_stocks(design):
        for side in range(4):
            fits = [i for i, c in enumerate(CONNECTORS) if side in c]
            if not any(s.counts[i] for i in fits):
                names = ", ".join(connector_name(CONNECTORS[i]) for i in fits)
                problems.append(f"stock '{s.name}' has no piece meeting a path entering from {SIDE_NAMES[side]}; "
                                f"expected one of {names}")
    if problems:
        return CheckResult("fitting pieces", False, "some stocks cannot continue a path from every side", problems)
    return CheckResult("fitting pieces", True, "every stock holds a fitting piece for a path entering from N, E, S "
                       "and W (3 of its 6 each)")


def check_board(design: Design, rules) -> CheckResult:
    board = design_board(design)
    problems = []
    if len(set(board.branches)) < rules.path_rounds:
        problems.append(f"Start has {len(set(board.branches))} branches but rules.path_rounds is "
                        f"{rules.path_rounds}; each round starts from a free branch")
    cell = next(c.params.cell for c in design.components.values() if c.generate == BOARD_GENERATOR)
    for cid, comp in design.components.items():
        if comp.generate in (STOCK_GENERATOR, OBJECTIVE_GENERATOR) and abs(comp.params.cell - cell) > 1e-6:
            problems.append(f"component '{cid}': pieces of {comp.params.cell:g} mm on cells of {cell:g} mm; "
                            "expected pieces the size of the board's cells")
    zones = board.zone_cells
    seen: dict = {}
    for name, cells in zones.items():
        for c in cells:
            if c in seen:
                problems.append(f"cell {list(c)} is in zones '{seen[c]}' and '{name}'; expected one zone a cell")
                break
            seen[c] = name
    if problems:
        return CheckResult("board", False, "the board does not fit the rules", problems)
    sizes = ", ".join(f"{name} {len(cells)}" for name, cells in zones.items())
    return CheckResult("board", True, f"{board.width}x{board.height} cells wrapping on both axes, Start "
                       f"{list(board.start)} with {len(board.branches)} branches, zones: {sizes}; pieces "
                       f"{cell:g} mm like the cells")


def check_objective(design: Design, rules) -> CheckResult:
    board = design_board(design)
    found = [(cid, c) for cid, c in design.components.items() if c.generate == OBJECTIVE_GENERATOR]
    problems = []
    if len(found) != 1 or found[0][1].count != 1:
        copies = sum(c.count for _, c in found)
        problems.append(f"{copies} Objective piece(s); expected exactly 1 (a component with generate: "
                        f"{OBJECTIVE_GENERATOR}, count 1)")
    zone = board.zone_cells.get(rules.objective_zone)
    if zone is None:
        problems.append(f"rules.objective_zone is '{rules.objective_zone}' but the board has zones "
                        f"{', '.join(board.zone_cells)}")
        zone = frozenset()
    cells = sorted(c for c in zone if c != board.start)
    if not cells:
        problems.append(f"zone '{rules.objective_zone}' has no cell for the Objective")
    kinds = {c for s in design_stocks(design) for i, c in enumerate(CONNECTORS) if s.counts[i]}
    per_round = design.meta.players.max * rules.pieces_per_stock
    far: list[str] = []
    steps = []
    for c in cells:
        k = pieces_to_reach(board, c, kinds)
        if k is None or k > per_round:
            far.append(f"{chr(ord('A') + c[0])}{c[1] + 1}")
        else:
            steps.append(k)
    if far:
        problems.append(f"{len(far)} {rules.objective_zone} cell(s) cannot be reached from Start within one "
                        f"round's {per_round} pieces: {', '.join(far[:12])}")
    if problems:
        return CheckResult("objective", False, "the Objective cannot be placed and reached as the rules say",
                           problems)
    return CheckResult("objective", True, f"1 Objective piece, {len(cells)} {rules.objective_zone} cells to put "
                       f"it on, each reached from Start in {min(steps)}-{max(steps)} pieces (a round lays up to "
                       f"{per_round}; the board wraps)")


def check_simulation(design: Design, games: int, seed: int, agent: str = "random") -> CheckResult:
    try:
        game = TuboGame(design, design.meta.players.min)
    except DesignError as exc:
        return CheckResult("simulation", False, "the rules engine cannot play this design",
                           [p.message for p in exc.problems])
    agents = [make_agent(agent) for _ in range(game.players)]
    reached = loops = closes = stuck = 0
    lengths = []
    failures = []
    for i in range(games):
        try:
            res = play(game, agents, seed + i)
        except RuntimeError as exc:
            failures.append(f"seed {seed + i}: {exc}")
            continue
        m = res.metrics
        reached += m["objective_reached"]
        loops += m["loops"]
        closes += m["closes"]
        stuck += m["stuck"]
        lengths.append(res.length)
    problems = list(failures[:5])
    if stuck:
        problems.append(f"{stuck} time(s) a player had neither a fitting piece nor a Close piece to lay")
    summary = []
    if lengths:
        n = len(lengths)
        summary.append(f"{n} games ended: Objective reached in {reached} ({reached / n:.0%}), mean "
                       f"{sum(lengths) / n:.1f} actions, {loops / n:.2f} loops and {closes / n:.2f} Close pieces "
                       "a game")
    if problems:
        return CheckResult("simulation", False, f"seeded {agent} games show problems", problems + summary)
    return CheckResult("simulation", True, f"{games} seeded {agent} games end", summary)


def run_checks(design: Design, games: int = 200, seed: int = 1, agent: str = "random") -> list[CheckResult]:
    rules = read_rules(design)
    results = [check_stocks(design, rules), check_fitting(design), check_board(design, rules),
               check_objective(design, rules)]
    if games > 0:
        results.append(check_simulation(design, games, seed, agent))
    return results
