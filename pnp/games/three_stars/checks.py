"""3 Stars completeness checks, run by `pnp validate`.

Every check compares the components (as their generators produce them) against the
rule numbers stated once under the design's `rules:` and the seed's definitions:

* cards: exactly every arrangement of `card_positions` (default [1, 3], the seed's
  "all arrangements of 1 to 3 pieces on a star") positions, each once;
* every card can be placed somewhere on the board of each player count;
* star positions per player count equal `rules.star_positions`;
* pieces: the printed count per colour equals `rules.pieces_per_player`, and there is a
  colour for every seat;
* the deck can fill every hand;
* by seeded simulation (at most SIMULATION_GAMES games per player count, the first shared
  with validate's playability check): every game ends (a win, not the engine's turn cap)
  and no colour runs short of pieces.
"""

from __future__ import annotations

from collections import Counter

from pnp.engine import player_counts
from pnp.engine.agents import make_agent
from pnp.engine.checks import CheckResult
from pnp.engine.playout import play
from pnp.engine.records import game_records
from pnp.games.three_stars.engine import (
    PIECE_GENERATOR,
    ThreeStarsGame,
    design_cards,
    design_geometry,
    read_rules,
)
from pnp.games.three_stars.geometry import placements
from pnp.model import Design
from pnp.parallel import prun

SHOW = 12  # most arrangements named in one message
SIMULATION_GAMES = 200
"""At most this many of the requested seeds (validate's -n) are played per player count, on every core; the
first 50 are validate's playability check's, shared. The check asks whether the printed pieces and the rules
let games end, not how often a seat wins (that is `pnp simulate`'s figure): a colour that runs short in 1.5 % of
random games runs short in one of 200 seeded games 19 times in 20 (1 - 0.985^200 = 0.95); with none seen,
fewer than 1.5 % run short (95 % upper bound, 3/200). Not fewer: 4 players need up to 33 pieces of a colour in
the first 100 seeds and 34 in the first 200, so 100 games would pass a box one piece short. Rarer shortages:
`pnp simulate -n 1000` counts them (metric piece_shortages)."""


def _arr(pos: tuple[int, ...]) -> str:
    return "[" + ",".join(map(str, pos)) + "]"


def _names(items) -> str:
    items = list(items)
    more = f" and {len(items) - SHOW} more" if len(items) > SHOW else ""
    return ", ".join(_arr(p) for p in items[:SHOW]) + more


def check_cards(design: Design) -> CheckResult:
    lo, hi = read_rules(design).card_positions
    expected = placements(lo, hi)
    have = Counter()  # type: ignore[var-annotated]
    for face in design_cards(design):
        have[tuple(sorted(face.positions))] += face.count
    missing = [p for p in expected if p not in have]
    doubled = [p for p in expected if have[p] > 1]
    extra = [p for p in have if p not in set(expected)]
    what = f"every arrangement of {lo}-{hi} positions on a star"
    if not (missing or doubled or extra):
        return CheckResult("cards", True, f"{sum(have.values())} cards: {what}, each once")
    details = []
    if missing:
        details.append(f"missing {len(missing)}: {_names(missing)}")
    if doubled:
        details.append(f"more than once {len(doubled)}: " + ", ".join(
            f"{_arr(p)} x{have[p]}" for p in doubled[:SHOW]) + (" ..." if len(doubled) > SHOW else ""))
    if extra:
        details.append(f"not {lo}-{hi} positions {len(extra)}: {_names(extra)}")
    return CheckResult("cards", False, f"the card set is not {what} ({len(expected)} cards), each once",
                       details)


def check_board(design: Design, rules) -> list[CheckResult]:
    geo = design_geometry(design)
    counts = player_counts(design)
    results = []
    problems, fits = [], []
    for n in counts:
        positions = geo.star_positions(n)
        want = rules.star_positions.get(n)
        if want is None:
            problems.append(f"{n} players: {len(positions)} star positions; rules.star_positions states none")
        elif len(positions) != want:
            problems.append(f"{n} players: {len(positions)} star positions; rules.star_positions says {want}")
        # a card fits a star position when every cell it marks is on the active board
        cells = geo.cells(n)
        stars = [geo.star_cells(v) for v in positions]
        unplaceable = [pos for pos in placements(1, 6) if not any(all(s[k] in cells for k in pos) for s in stars)]
        fits.append((n, len(positions), unplaceable))
    found = ", ".join(f"{n}: {k}" for n, k, _ in fits)
    if problems:
        results.append(CheckResult("star positions", False, "the board does not match rules.star_positions",
                                   problems))
    else:
        results.append(CheckResult("star positions", True, f"per player count as stated ({found})"))
    bad = [f"{n} players: no star position for {_names(u)}" for n, _, u in fits if u]
    results.append(CheckResult("placement", not bad, "every card can be placed on each player count's board"
                               if not bad else "some cards cannot be placed anywhere", bad))
    if rules.stars_to_win > min((k for _, k, _ in fits), default=0):
        results.append(CheckResult("stars to win", False, f"rules.stars_to_win is {rules.stars_to_win} but a "
                                   "board has fewer star positions"))
    return results


def check_pieces(design: Design, rules) -> CheckResult:
    found = [c for c in design.components.values() if c.generate == PIECE_GENERATOR]
    if not found:
        return CheckResult("pieces", False, f"no pieces component; expected one with generate: {PIECE_GENERATOR}")
    comp = found[0]
    problems = []
    if comp.count != rules.pieces_per_player:
        problems.append(f"the pieces component prints {comp.count} per colour but rules.pieces_per_player "
                        f"is {rules.pieces_per_player}")
    colours = len(comp.params.colours)
    if colours < design.meta.players.max:
        problems.append(f"{colours} colours for up to {design.meta.players.max} players")
    if problems:
        return CheckResult("pieces", False, "; ".join(problems))
    return CheckResult("pieces", True, f"{comp.count} per colour as stated, {colours} colours")


def check_deck(design: Design, rules) -> CheckResult:
    deck = sum(f.count for f in design_cards(design))
    need = design.meta.players.max * rules.hand_size
    ok = deck > need
    return CheckResult("deck", ok, f"{deck} cards for {design.meta.players.max} hands of {rules.hand_size}"
                       + ("" if ok else f"; expected more than {need} cards"))


def _records(design: Design, players: int, games: int, seed: int, agent: str) -> list:
    """Seeded games on every core (pnp.engine.records.game_records), shared with validate's playability check."""

    return game_records(design.folder, players, agent, seed, games)


def check_simulation(design: Design, rules, games: int, seed: int, agent: str = "random") -> CheckResult:
    """Seeded playouts per player count: every game ends and no colour runs short of pieces.

    At most SIMULATION_GAMES of the requested seeds are played, on every core, the first of them shared with
    the playability check. When a colour runs short, the same seeds are replayed with unlimited pieces to
    tell how many pieces a colour would have needed.
    """
    asked, games = games, min(games, SIMULATION_GAMES)
    problems, summary = [], []
    for n in player_counts(design):
        game = ThreeStarsGame(design, n)
        records = _records(design, n, games, seed, agent)
        unfinished = sum(r.metrics["unfinished"] - r.metrics["stalled"] for r in records)
        stalled = sum(r.metrics["stalled"] for r in records)
        short = Counter(c for r in records for c in game.colours if r.metrics[f"piece_shortages:{c}"])
        lengths = [r.actions for r in records]
        if stalled:
            problems.append(f"{n} players: {stalled} of {games} games stalled: no player could place or steal "
                            "any more, whatever the cards")
        if unfinished:
            problems.append(f"{n} players: {unfinished} of {games} games did not end within {game.max_turns} turns")
        peak = _pieces_needed(design, n, games, seed, agent) if short else 0
        for colour in game.colours:
            if short[colour]:
                problems.append(f"{n} players: {colour} ran short of pieces in {short[colour]} of {games} games "
                                f"(has {rules.pieces_per_player})")
        if short:
            problems.append(f"{n} players: with unlimited pieces, a colour needed up to {peak} in the same games")
        summary.append(f"{n} players: {len(records)} games ended, mean {sum(lengths) / len(lengths):.0f} turns, "
                       f"no colour short of its {rules.pieces_per_player} pieces")
    if problems:
        return CheckResult("simulation", False, f"seeded {agent} games (seeds {seed}..{seed + games - 1}) "
                           "show problems", problems)
    of = f" (of the {asked} asked: a shortage in 3 % of games shows 19 times in 20)" if asked > games else ""
    return CheckResult("simulation", True, f"{games} seeded {agent} games per player count{of}", summary)


def _pieces_needed(design: Design, players: int, games: int, seed: int, agent: str) -> int:
    """Most pieces any colour had on the board in the same seeded games with unlimited pieces (on every core)."""
    game = ThreeStarsGame(design, players, pieces=len(ThreeStarsGame(design, players).cells))

    def needed(s: int):
        m = play(game, [make_agent(agent) for _ in range(players)], s).metrics
        return max(m[f"pieces_needed:{c}"] for c in game.colours)

    peak = 0
    for status, value in prun([lambda s=s: needed(s) for s in range(seed, seed + games)]):
        if status != "ok":
            raise value  # type: ignore[misc]
        peak = max(peak, value)  # type: ignore[call-overload]
    return peak


def run_checks(design: Design, games: int = 200, seed: int = 1, agent: str = "random") -> list[CheckResult]:
    rules = read_rules(design)
    results = [check_cards(design), *check_board(design, rules), check_pieces(design, rules),
               check_deck(design, rules)]
    if games > 0:
        results.append(check_simulation(design, rules, games, seed, agent))
    return results
