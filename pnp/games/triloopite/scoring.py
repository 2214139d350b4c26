"""TriLOOPite scoring: the tables under the design's `rules:`, and the final score of a layout.

Every number is data in the design (seed 002's tables):

    rules:
      game: standard              # standard | first (the seed's "Première partie")
      loop_points: {"0": 0, "1-2": 1, ..., "11+": 13}        # closed loops -> points
      longest_loop_points: {"6-7": 0, ..., "30+": 54}         # tiles in the longest loop -> points
      bonuses: {figure_eight: 5, crossing_loops: 5, nested_loops: 5, start_loop: 5}
      hand_penalty_power: 2       # each player loses (tiles in hand) ** 2
      first_game_verdicts: {"0-1": {en: ..., fr: ...}, ...}  # tiles left in all hands -> verdict

Table keys are ranges: "3" (exactly 3), "1-2" (1 to 2), "11+" (11 or more). A value no
row covers scores 0 (a longest loop under 6 tiles, or no loop at all). Each bonus counts
once a game, whatever the number of such configurations (*decision*: the seed says
"Les configurations suivantes valent chacune 5 points supplémentaires").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator, StrictInt

from pnp.engine.design import game_rules
from pnp.games.triloopite.geometry import BONUSES, Analysis
from pnp.model import Design
from pnp.params import RulesSection

BONUS_TEXT = {
    "figure_eight": {"en": "A loop crossing itself (like an 8)", "fr": "Boucle avec un croisement (comme un 8)"},
    "crossing_loops": {"en": "Two loops crossing each other", "fr": "Deux boucles qui se croisent"},
    "nested_loops": {"en": "A loop inside another loop", "fr": "Une boucle à l'intérieur d'une autre boucle"},
    "start_loop": {"en": "A loop through the start tile", "fr": "Une boucle qui utilise la tuile de départ"},
}


@dataclass(frozen=True)
class Row:
    lo: int
    hi: int | None  # None: no upper bound
    value: Any
    key: str

    def covers(self, n: int) -> bool:
        return self.lo <= n and (self.hi is None or n <= self.hi)

    @property
    def label(self) -> str:
        if self.hi is None:
            return f"{self.lo}+"
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"


@dataclass(frozen=True)
class Table:
    name: str
    rows: tuple[Row, ...]

    def row(self, n: int) -> Row | None:
        for r in self.rows:
            if r.covers(n):
                return r
        return None

    def points(self, n: int) -> int:
        r = self.row(n)
        return r.value if r is not None else 0

    def problems(self) -> list[str]:
        """Overlapping or unordered rows (gaps are allowed: they score 0)."""
        out = []
        for a, b in zip(self.rows, self.rows[1:]):
            if a.hi is None or b.lo <= a.hi:
                out.append(f"rules.{self.name}: rows '{a.key}' and '{b.key}' overlap; expected ranges in "
                           "increasing order without overlap")
        return out


@dataclass(frozen=True)
class Rules:
    mode: str
    loop_points: Table
    longest_loop_points: Table
    bonuses: dict[str, int]
    hand_penalty_power: int
    verdicts: Table

    def verdict(self, tiles_in_hand: int, lang: str = "en") -> str:
        r = self.verdicts.row(tiles_in_hand)
        if r is None:
            return ""
        v = r.value
        return v.get(lang) or next(iter(v.values()), "") if isinstance(v, dict) else str(v)

    @property
    def max_points(self) -> int:
        return (max((r.value for r in self.loop_points.rows), default=0)
                + max((r.value for r in self.longest_loop_points.rows), default=0)
                + sum(v for v in self.bonuses.values() if v > 0))


_RANGE = re.compile(r"^\s*(\d+)\s*(?:(\+)|-\s*(\d+))?\s*$")


def parse_range(key: Any) -> tuple[int, int | None]:
    """'3' -> (3, 3), '1-2' -> (1, 2), '11+' -> (11, None); ValueError otherwise."""
    m = _RANGE.match(str(key))
    if not m:
        raise ValueError(f"'{key}' is not a range; expected e.g. 3, 1-2 or 11+")
    lo = int(m.group(1))
    if m.group(2):
        return lo, None
    hi = int(m.group(3)) if m.group(3) else lo
    if hi < lo:
        raise ValueError(f"'{key}' runs backwards; expected low-high")
    return lo, hi


def _table(name: str, raw: Any, text: bool = False) -> Table:
    """A range table from the design's mapping; ValueError naming every bad row."""
    if not isinstance(raw, dict) or not raw:
        raise ValueError(f"{_short(raw)} is not a mapping of ranges; expected e.g. {{\"0\": 0, \"1-2\": 1}}")
    rows, problems = [], []
    for key, value in raw.items():
        try:
            lo, hi = parse_range(key)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if text:
            if isinstance(value, str):
                value = {"en": value}
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                problems.append(f"{key}: {value!r} is not a text; expected a text or {{en: ..., fr: ...}}")
                continue
        elif not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{key}: {value!r} is not a whole number of points")
            continue
        rows.append(Row(lo, hi, value, str(key)))
    rows.sort(key=lambda r: r.lo)
    table = Table(name, tuple(rows))
    problems += [msg.removeprefix(f"rules.{name}: ") for msg in table.problems()]
    if problems:
        raise ValueError("; ".join(problems))
    return table


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _table_field(name: str, text: bool = False) -> Any:
    return PlainValidator(lambda raw: _table(name, raw, text))


class Bonuses(RulesSection):
    """Points of each bonus configuration (each counts once a game)."""

    figure_eight: StrictInt = Field(description="the points of a loop crossing itself, e.g. 5")
    crossing_loops: StrictInt = Field(description="the points of two loops crossing each other, e.g. 5")
    nested_loops: StrictInt = Field(description="the points of a loop inside another loop, e.g. 5")
    start_loop: StrictInt = Field(description="the points of a loop through the start tile, e.g. 5")


class TriloopiteRules(RulesSection):
    """The design's `rules:` section (checked at load time, file:line messages)."""

    game: Literal["standard", "first"] = Field(
        "standard", description="standard or first (the seed's first game, ending at the first closed loop)")
    loop_points: Annotated[Table, _table_field("loop_points")] = Field(
        description='closed loops -> points, e.g. {"0": 0, "1-2": 1}')
    longest_loop_points: Annotated[Table, _table_field("longest_loop_points")] = Field(
        description='tiles in the longest loop -> points, e.g. {"6-7": 0}')
    bonuses: Bonuses = Field(description="points for each of " + ", ".join(BONUSES))
    hand_penalty_power: StrictInt = Field(
        2, ge=0, description="a whole number >= 0 (2: minus the square of each player's tiles in hand)")
    first_game_verdicts: Annotated[Table, _table_field("first_game_verdicts", text=True)] = Field(
        description='tiles left in hand -> verdict, e.g. {"0-1": Excellent!}')


def read_rules(design: Design) -> Rules:
    """The scoring tables and numbers under `rules:`; DesignError naming each missing or wrong one."""
    r = game_rules(design, TriloopiteRules)
    return Rules(r.game, r.loop_points, r.longest_loop_points, r.bonuses.model_dump(), r.hand_penalty_power,
                 r.first_game_verdicts)


@dataclass(frozen=True)
class Score:
    """The standard game's final score, part by part."""

    loops: int
    longest: int
    loop_points: int
    longest_points: int
    bonuses: dict[str, int]
    hands: tuple[int, ...]
    penalty: int

    @property
    def bonus_points(self) -> int:
        return sum(self.bonuses.values())

    @property
    def total(self) -> int:
        return self.loop_points + self.longest_points + self.bonus_points - self.penalty

    def lines(self) -> list[str]:
        out = [f"{self.loops} closed loop(s): {self.loop_points} point(s)",
               f"longest loop {self.longest} tiles: {self.longest_points} point(s)"]
        for k, v in self.bonuses.items():
            out.append(f"bonus {k}: +{v}")
        out.append(f"tiles in hand {list(self.hands)}: -{self.penalty}")
        out.append(f"score {self.total}")
        return out


def score(analysis: Analysis, hands: Sequence[int], rules: Rules) -> Score:
    """Points from the two tables, each bonus configuration present, minus sum(hand ** power)."""
    got = {k: rules.bonuses.get(k, 0) for k, present in analysis.bonuses.items() if present}
    return Score(
        loops=analysis.count, longest=analysis.longest,
        loop_points=rules.loop_points.points(analysis.count),
        longest_points=rules.longest_loop_points.points(analysis.longest),
        bonuses=got, hands=tuple(hands), penalty=sum(h ** rules.hand_penalty_power for h in hands))
