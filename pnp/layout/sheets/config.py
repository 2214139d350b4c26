"""What the planner is told: the sheet conventions (templates/sheets/layout.yaml), the print options, papers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from pnp.loader import templates_dir
from pnp.units import parse_length


@dataclass(frozen=True)
class LayoutConfig:
    papers: dict[str, tuple[float, float]]
    footer: float
    margin: float
    mark_gap: float
    mark_min: float
    mark_max: float
    mark_width: float
    cut_width: float
    calibration: float
    board_overlap: float


@lru_cache(maxsize=4)
def load_config(path: Path | None = None) -> LayoutConfig:
    path = path or templates_dir() / "sheets" / "layout.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    papers = {k: (parse_length(v[0]), parse_length(v[1])) for k, v in raw.pop("papers").items()}
    return LayoutConfig(papers=papers, **{k: parse_length(v) for k, v in raw.items()})


@dataclass(frozen=True)
class SheetOptions:
    """Print settings as the planner needs them: the design's `print:` with command-line overrides."""

    paper: str = "a4"
    orientation: str = "auto"  # auto | portrait | landscape
    duplex: str = "long"  # long | short | none | fold
    gutter: float = 3.0
    keep_bleed: bool = False  # print.gutter: bleed (each card's gutter is both bleeds: none is clipped)
    margin: float = 0.0  # the printable area's margin: nothing is drawn closer to the paper's edges
    marks: str = "crop"  # crop | cut | none
    back_offset: tuple[float, float] = (0.0, 0.0)
    proof: bool = False
    safe_zone: float = 3.0
    counting: bool = False  # only the number of sheets is wanted (sheets_needed): no marks are drawn
    lang: str = "en"  # the language of the sheets' own words (headers, footers, ruler, part labels)

    @classmethod
    def from_print(cls, pr, paper: str | None = None) -> "SheetOptions":
        return cls(paper=paper or pr.paper, orientation=pr.orientation, duplex=pr.duplex,
                   gutter=pr.effective_gutter, keep_bleed=pr.gutter == "bleed", margin=pr.margin, marks=pr.marks,
                   back_offset=tuple(pr.back_offset),
                   proof=pr.proof, safe_zone=pr.safe_zone)


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float

    def turned(self) -> "Paper":
        return Paper(self.name, self.height, self.width)


def paper(name: str, cfg: LayoutConfig) -> Paper:
    w, h = cfg.papers[name]
    return Paper(name, w, h)


def papers(base: Paper, orientation: str) -> list[Paper]:
    """The sheet orientations to try: portrait first, then landscape (or the one forced)."""
    portrait = base if base.width <= base.height else base.turned()
    if orientation == "portrait":
        return [portrait]
    if orientation == "landscape":
        return [portrait.turned()]
    return [portrait, portrait.turned()]
