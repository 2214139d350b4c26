"""`pnp sweep`: the same simulation over copies of a design with some values changed.

    pnp sweep three-stars --set rules.pieces_per_player+components.pieces.count=20,25,30,34 \
        --players 2,3,4 -n 500 --agent greedy

Each `--set KEY=V1,V2,...` names a value of design.yaml by its dotted path (`rules.X`,
`components.<id>.count`, list items by number) and the values to try; several `--set`
multiply (every combination runs), and keys joined by `+` take the same value together.
Every combination is a copy of the design folder whose design.yaml differs only in those
values, written in place (every other line, comment and line number kept), so the copy
goes through the same file:line checks as the design itself, then through the game's
static checks (`pnp validate -n 0`). A setting that fails either is reported as such,
with the problems, and not played. The others play `-n` seeded games per player count
(the same seeds for every setting, so settings differ only by what was changed) on every
core, or on Dask (pnp.distributed); results are tables per figure with 95% intervals,
`--json`, and `--plot` (win rate by seat and game length per setting, one panel per
player count).
"""

from __future__ import annotations

import itertools
import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pnp.distributed import DesignFiles, batches, run_batches
from pnp.engine import load_engine
from pnp.engine.agents import describe, parse_agents
from pnp.errors import DesignError, NamedFile, PnpError, display_path
from pnp.loader import DESIGN_FILE, load_design, resolve_design
from pnp.registry import get_game
from pnp.render.svg import Canvas
from pnp.simulate import mean_interval, resolve_agent, summarize, wilson

MAX_SETTINGS = 200
"""At most this many combinations of values in one sweep."""


@dataclass(frozen=True)
class Setting:
    """One --set: the keys (dotted paths) changed together and the values they take."""

    keys: tuple[str, ...]
    values: tuple[Any, ...]


def parse_setting(text: str) -> Setting:
    """`rules.pieces_per_player=20,25` or `a.b+c.d=1,2`; PnpError saying what is expected otherwise."""
    if "=" not in text:
        raise PnpError(f"--set {text}: expected KEY=V1,V2,..., e.g. rules.pieces_per_player=20,25,30")
    left, right = text.split("=", 1)
    keys = tuple(k.strip() for k in left.split("+"))
    if not all(keys) or any(not all(part for part in k.split(".")) for k in keys):
        raise PnpError(f"--set {text}: '{left}' is not a dotted key; expected e.g. rules.pieces_per_player")
    values = []
    for raw in right.split(","):
        raw = raw.strip()
        if not raw:
            raise PnpError(f"--set {text}: an empty value; expected values separated by commas, e.g. 20,25,30")
        try:
            v = yaml.safe_load(raw)
        except yaml.YAMLError:
            v = raw
        if isinstance(v, (dict, list)) or v is None:
            v = raw  # only plain values: a number, true/false, or text
        values.append(v)
    return Setting(keys, tuple(values))


def parse_players(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise PnpError(f"--players {text}: expected player counts separated by commas, e.g. 2,3,4") from None
    if not counts or any(n < 1 for n in counts):
        raise PnpError(f"--players {text}: expected player counts of at least 1, e.g. 2,3,4")
    return sorted(set(counts))


def combinations(settings: Sequence[Setting]) -> list[dict[str, Any]]:
    """Every combination of the settings' values, as {key: value}; keys joined by + share the value and are
    one entry 'a+b' (split when the copy is written)."""
    combos = []
    for values in itertools.product(*[s.values for s in settings]):
        combos.append({"+".join(s.keys): v for s, v in zip(settings, values)})
    if len(combos) > MAX_SETTINGS:
        raise PnpError(f"{len(combos)} combinations of --set values; expected at most {MAX_SETTINGS}")
    return combos


def label(combo: dict[str, Any]) -> str:
    return ", ".join(f"{k}={_yaml_value(v)}" for k, v in combo.items()) or "(the design as it is)"


# --- editing a copy ------------------------------------------------------------------------------


def _yaml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return json.dumps(str(v), ensure_ascii=False)  # a JSON string is a valid YAML scalar


def _find(node: yaml.Node, path: list[str], key: str, doc: str) -> yaml.Node:
    for i, part in enumerate(path):
        where = ".".join(path[:i]) or "the top level"
        if isinstance(node, yaml.MappingNode):
            found = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == part]
            if not found:
                names = [k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode)]
                raise PnpError(f"{doc}: --set {key}: no key '{part}' under {where}; expected one of: "
                               f"{', '.join(names)}")
            node = found[-1]
        elif isinstance(node, yaml.SequenceNode):
            if not part.isdigit() or int(part) >= len(node.value):
                raise PnpError(f"{doc}: --set {key}: '{part}' under {where} is not an item number; expected "
                               f"0 to {len(node.value) - 1}")
            node = node.value[int(part)]
        else:
            raise PnpError(f"{doc}: --set {key}: {where} holds a single value, not '{part}'")
    if not isinstance(node, yaml.ScalarNode):
        raise PnpError(f"{doc}: --set {key}: holds a {'list' if isinstance(node, yaml.SequenceNode) else 'mapping'}, "
                       "not a single value; expected the key of one number, flag or text")
    return node


def edited_text(text: str, combo: dict[str, Any], doc: str) -> str:
    """design.yaml text with each key's value replaced in place (the rest byte for byte, lines kept)."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    spans = []
    for keys, value in combo.items():
        for key in keys.split("+"):
            node = _find(root, key.split("."), key, doc)  # type: ignore[arg-type]
            spans.append((node.start_mark.index, node.end_mark.index, _yaml_value(value), key))
    spans.sort()
    for (a0, a1, _, k1), (b0, _, _, k2) in zip(spans, spans[1:]):
        if b0 < a1:
            raise PnpError(f"{doc}: --set {k1} and {k2} name the same value")
    for start, end, new, _ in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def make_copy(folder: Path, combo: dict[str, Any], root: Path, index: int) -> Path:
    """A copy of the design folder under `root` (same folder name) with `combo` applied to design.yaml."""
    dst = root / f"{index:03d}" / folder.name
    shutil.copytree(folder, dst, symlinks=True)
    path = dst / DESIGN_FILE
    path.write_text(edited_text((folder / DESIGN_FILE).read_text(encoding="utf-8-sig"), combo,
                                display_path(folder / DESIGN_FILE)), encoding="utf-8")
    return dst


# --- running ----------------------------------------------------------------------------------------


@dataclass
class SettingResult:
    values: dict[str, Any]
    status: str = "ok"
    """'ok', 'invalid' (a file:line problem) or 'fails validation' (a static check fails)."""
    problems: list[str] = field(default_factory=list)
    players: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Player count -> the figures (see `figures`), or {'skipped': reason}."""


@dataclass
class SweepResult:
    design: str
    title: str
    games: int
    seed: int
    agent: str
    agent_source: str
    player_counts: list[int]
    seat_names: dict[int, list[str]]
    settings: list[SettingResult]
    cooperative: bool = False
    workers: str = ""

    @property
    def failed(self) -> list[SettingResult]:
        return [s for s in self.settings if s.status != "ok"]

    def to_dict(self) -> dict[str, Any]:
        return {"design": self.design, "title": self.title, "games": self.games, "seed": self.seed,
                "agent": self.agent, "agent_source": self.agent_source, "players": self.player_counts,
                "cooperative": self.cooperative,
                "settings": [{"values": s.values, "label": label(s.values), "status": s.status,
                              "problems": s.problems, "players": {str(n): f for n, f in s.players.items()}}
                             for s in self.settings]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True, ensure_ascii=False)

    def to_text(self) -> str:
        how = "the game's default" if self.agent_source == "default" else "asked with --agent"
        lines = [f"{self.title} ({self.design}): sweep of {len(self.settings)} setting(s) x players "
                 f"{', '.join(map(str, self.player_counts))}, {self.games} games each, {self.agent} agents ({how}), "
                 f"seeds {self.seed}..{self.seed + self.games - 1} for every setting"]
        for s in self.failed:
            lines.append(f"NOT PLAYED  {label(s.values)}: {s.status}")
            lines.extend(f"    {p}" for p in s.problems)
        ok = [s for s in self.settings if s.status == "ok"]
        if not ok:
            lines.append("no setting passed validation: nothing was played")
            return "\n".join(lines)
        width = max(len(label(s.values)) for s in ok)
        played = [n for n in self.player_counts if any("games" in s.players.get(n, {}) for s in ok)]
        zero = sorted({k for s in ok for f in s.players.values() for k in f.get("metrics", {})}
                      - {k for s in ok for f in s.players.values() for k, m in f.get("metrics", {}).items()
                         if m["ci95"] != [0, 0]})
        for title, cell in self._tables(ok, played, set(zero)):
            lines.append("")
            lines.append(title)
            lines.append(f"  {'setting':<{width}}  " + "  ".join(f"{f'{n} players':<24}" for n in played))
            for s in ok:
                cells = []
                for n in played:
                    fig = s.players.get(n, {})
                    cells.append(f"{(cell(fig, n) if 'games' in fig else '-'):<24}")
                lines.append(f"  {label(s.values):<{width}}  " + "  ".join(cells).rstrip())
        if zero:
            lines.append("")
            lines.append(f"always 0 in every game: {', '.join(zero)}")
        skipped = {(label(s.values), n, f["skipped"]) for s in ok for n, f in s.players.items() if "skipped" in f}
        for lab, n, why in sorted(skipped):
            lines.append(f"- {lab}, {n} players: {why}")
        capped = [(label(s.values), n, f["capped"]) for s in ok for n, f in s.players.items()
                  if f.get("capped")]
        if capped:
            lines.append("")
            lines.append("WARNING: games stopped at the engine's safety cap (their figures describe games cut off):")
            lines.extend(f"  {lab}, {n} players: {k} of {self.games}" for lab, n, k in capped)
        return "\n".join(lines)

    def _tables(self, ok: list[SettingResult], played: list[int],
                zero: set[str]) -> list[tuple[str, Callable[[dict, int], str]]]:
        tables: list[tuple[str, Callable[[dict, int], str]]] = []
        most = max(played, default=0)
        if not self.cooperative:
            for seat in range(most):
                def cell(f, n, seat=seat):
                    if seat >= n:
                        return ""
                    s = f["seats"][seat]
                    return f"{s['win_rate']:.1%} [{s['ci95'][0]:.1%}, {s['ci95'][1]:.1%}]"
                tables.append((f"win rate of seat {seat + 1} (95% interval)", cell))
            tables.append(("draws or unfinished (95% interval)",
                           lambda f, n: f"{f['draw_rate']:.1%} [{f['draw_ci95'][0]:.1%}, {f['draw_ci95'][1]:.1%}]"))
        else:
            tables.append(("team result (mean, 95% interval)", lambda f, n: _mean_cell(f["team_result"])))
        tables.append(("game length in player turns (mean, 95% interval)", lambda f, n: _mean_cell(f["length"])))
        names = sorted({k for s in ok for f in s.players.values() for k in f.get("metrics", {})} - zero)
        for name in names:
            tables.append((f"{name} per game (mean, 95% interval)",
                           lambda f, n, name=name: _mean_cell(f["metrics"][name]) if name in f.get("metrics", {})  # type: ignore[misc]
                           else ""))
        return tables


def _mean_cell(m: dict) -> str:
    return f"{m['mean']:.2f} [{m['ci95'][0]:.2f}, {m['ci95'][1]:.2f}]"


def _mean(values: Sequence[float]) -> dict[str, Any]:
    """Mean and 95% interval (normal approximation, kept within the values seen: a count is never below 0)."""
    m, lo, hi = mean_interval(values)
    if values:
        lo, hi = max(lo, min(values)), min(hi, max(values))
    return {"mean": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def figures(records, players: int) -> dict[str, Any]:
    """The figures of one setting at one player count, each with its 95% interval."""
    agg = summarize(records, players)
    n = len(records)
    seats = [{"seat": p + 1, "wins": w, "win_rate": round(w / n, 4), "ci95": [round(x, 4) for x in wilson(w, n)]}
             for p, w in enumerate(agg["wins"])]
    metrics = {}
    for k in sorted({k for r in records for k in r.metrics}):
        metrics[k] = _mean([r.metrics.get(k, 0) for r in records])
    return {"games": n, "seats": seats, "draws": agg["draws"], "draw_rate": round(agg["draws"] / n, 4),
            "draw_ci95": [round(x, 4) for x in wilson(agg["draws"], n)], "length": _mean(agg["lengths"]),
            "team_result": _mean(agg["returns"][0]) if agg["returns"] else _mean([]),
            "capped": agg["capped"], "metrics": metrics}


def _rewrite(problem: str, copy: Path, original: Path, lab: str) -> str:
    """A problem found in a copy, cited at the original design's file:line, with the setting it comes from."""
    text = problem.replace(display_path(copy), display_path(original)).replace(str(copy), display_path(original))
    return f"{text} (with {lab})"


def sweep(design_arg: str, settings: Sequence[str], players: Sequence[int] | None = None, games: int = 200,
          seed: int = 1, agent: str | None = None, workers: int | None = None, scheduler: str | None = None,
          progress: Callable[[int], None] | None = None) -> SweepResult:
    """Simulate every combination of `settings` at every player count, each on a checked copy of the design."""
    from pnp.validate import check_design  # lazy: 3.7 ms (pnp.validate)

    if games < 1:
        raise PnpError(f"-n {games}: expected at least 1 game")
    folder = resolve_design(design_arg).resolve()
    base = load_design(folder)  # the design itself must load: its own problems come first
    entry = get_game(base.game)
    if entry is None or entry.engine is None:
        raise PnpError(f"{base.slug}: the design names no game with a rules engine; a sweep plays the game "
                       "(expected 'game:' naming one of the registered games)")
    agent, source = resolve_agent(base.game, agent)
    counts = list(players) if players else [base.meta.players.min]
    combos = combinations([parse_setting(s) for s in settings]) if settings else [{}]
    results: list[SettingResult] = []
    seat_names: dict[int, list[str]] = {}
    work = []
    root = Path(tempfile.mkdtemp(prefix="pnp-sweep-"))
    try:
        for i, combo in enumerate(combos):
            res = SettingResult(dict(combo))
            results.append(res)
            copy = make_copy(folder, combo, root, i)
            lab = label(combo)
            try:
                design = load_design(copy)
                report = check_design(design, games=0, agent="random")
            except DesignError as exc:
                res.status, res.problems = "invalid", [_rewrite(str(p), copy, folder, lab) for p in exc.problems]
                continue
            failing = [r for r in report.results if not r.ok]
            if failing:
                res.status = "fails validation"
                res.problems = [f"{r.name}: {r.message}" + (f" ({'; '.join(r.details[:3])})" if r.details else "")
                                for r in failing]
                continue
            files = DesignFiles.read(copy)
            for n in counts:
                lo, hi = design.meta.players.min, design.meta.players.max
                if not lo <= n <= hi:
                    res.players[n] = {"skipped": f"the design plays {lo}-{hi} players"}
                    continue
                try:
                    game = load_engine(design, n)
                    specs = parse_agents(agent, n)
                except DesignError as exc:
                    res.players[n] = {"skipped": "; ".join(_rewrite(str(p), copy, folder, lab) for p in exc.problems)}
                    continue
                seat_names.setdefault(n, [game.player_name(p) for p in range(n)])
                if any(s.kind == "mcts" for s in specs):
                    from pnp.engine.openspiel_adapter import require_openspiel  # noqa: F401  # lazy: optional (ai)
                work.extend(batches(files, n, describe(specs), seed, games, label=(i, n)))
        per_batch, run = run_batches(work, workers, scheduler, progress)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    grouped: dict[tuple[int, int], list] = {}
    for b, recs in zip(work, per_batch):
        grouped.setdefault(b.label, []).extend(recs)
    for (i, n), recs in grouped.items():
        results[i].players[n] = figures(recs, n)
    return SweepResult(design=base.slug, title=base.meta.title, games=games, seed=seed, agent=agent,
                       agent_source=source, player_counts=counts, seat_names=seat_names, settings=results,
                       cooperative=bool(entry.cooperative), workers=run.where)


def run(design: str, settings: Sequence[str], players: str | None, games: int, seed: int, agent: str | None,
        as_json: bool, plot: Path | None, workers: int | None = None, scheduler: str | None = None) -> tuple[str, int]:
    """What `pnp sweep` prints and its exit status (1 when a setting failed validation)."""
    counts = parse_players(players)
    target = NamedFile(plot, "--plot") if plot is not None else None  # checked before the games are played
    if sys.stdout.isatty():
        from rich.progress import Progress  # lazy: 30 ms (rich.progress)

        with Progress(transient=True) as bar:
            task = bar.add_task("sweeping", total=None)
            result = sweep(design, settings, counts, games, seed, agent, workers, scheduler,
                           progress=lambda k: bar.advance(task, k))
    else:
        result = sweep(design, settings, counts, games, seed, agent, workers, scheduler)
    if target is not None:
        target.write(plot_svg(result))
    return (result.to_json() if as_json else result.to_text()), (1 if result.failed else 0)


# --- plot ------------------------------------------------------------------------------------------

INK, GREY = "#1a1a1a", "#888888"
SEAT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]  # Okabe-Ito


def plot_svg(res: SweepResult) -> str:
    """One panel per player count: win rate by seat per setting (top), game length per setting (bottom),
    each with its 95% interval as a whisker; settings that were not played are listed under the title."""
    ok = [s for s in res.settings if s.status == "ok"]
    cols = max(1, len(res.player_counts))
    panel_w = max(70.0, 12.0 + 9.0 * len(ok) * (1 if res.cooperative else 1.6))
    width = 16.0 + cols * panel_w
    top_h, len_h = 58.0, 46.0
    notes = [f"not played: {label(s.values)} ({s.status})" for s in res.failed]
    y0 = 20.0 + 4.0 * len(notes)
    height = y0 + top_h + len_h + 20.0 + 4.0 * len(ok)
    c = Canvas(width, height)
    c.rect(0, 0, width, height, fill="#ffffff")
    c.text(6, 8, f"{res.title}: {res.games} games per setting, {res.agent} agents, seed {res.seed}", size=3.6,
           weight="bold", fill=INK)
    for k, note in enumerate(notes):
        c.text(6, 13 + 4 * k, note, size=2.6, fill="#b00000")
    for ci, n in enumerate(res.player_counts):
        x0 = 12.0 + ci * panel_w
        w = panel_w - 10.0
        c.text(x0 + w / 2, y0 - 2, f"{n} players", size=3.2, anchor="middle", weight="bold", fill=INK)
        _win_panel(c, res, ok, n, x0, y0 + 6, w, top_h - 12)
        _length_panel(c, ok, n, x0, y0 + top_h + 8, w, len_h - 12)
    # legend: seat colours, then what each setting number stands for
    ly = y0 + top_h + len_h + 6
    if not res.cooperative:
        for p in range(max(res.player_counts)):
            c.rect(6 + p * 22, ly - 2.6, 3, 3, fill=SEAT_COLOURS[p % len(SEAT_COLOURS)])
            c.text(6 + p * 22 + 4, ly, f"seat {p + 1}", size=2.6, fill=INK)
    for k, s in enumerate(ok):
        c.text(6, ly + 5 + 4 * k, f"setting {k + 1}: {label(s.values)}", size=2.6, fill=INK)
    return c.to_string()


def _whisker(c: Canvas, x: float, y_lo: float, y_hi: float) -> None:
    c.line((x, y_lo), (x, y_hi), stroke=INK, stroke_width=0.3)
    for y in (y_lo, y_hi):
        c.line((x - 0.8, y), (x + 0.8, y), stroke=INK, stroke_width=0.3)


def _win_panel(c: Canvas, res: SweepResult, ok: list[SettingResult], n: int, x0: float, y0: float, w: float,
               h: float) -> None:
    c.line((x0, y0 + h), (x0 + w, y0 + h), stroke=INK, stroke_width=0.3)
    c.line((x0, y0), (x0, y0 + h), stroke=INK, stroke_width=0.3)
    if res.cooperative:
        c.text(x0 + w / 2, y0 - 2.5, "team result (mean, 95% interval)", size=2.6, anchor="middle", fill=INK)
        vals = [s.players[n]["team_result"] for s in ok if n in s.players and "skipped" not in s.players[n]]
        _means(c, ok, n, "team_result", x0, y0, w, h, vals)
        return
    c.text(x0 + w / 2, y0 - 2.5, "win rate by seat (95% interval)", size=2.6, anchor="middle", fill=INK)
    fair = y0 + h - h / n
    c.line((x0, fair), (x0 + w, fair), stroke=GREY, stroke_width=0.25, stroke_dasharray="1,1")
    c.text(x0 - 1, y0 + 1, "100%", size=2.2, anchor="end", fill=INK)
    c.text(x0 - 1, y0 + h, "0", size=2.2, anchor="end", fill=INK)
    c.text(x0 + w + 0.5, fair + 1, f"{1 / n:.0%}", size=2.2, fill=GREY)
    group = w / max(1, len(ok))
    bw = group * 0.8 / n
    for k, s in enumerate(ok):
        f = s.players.get(n, {})
        gx = x0 + k * group + group * 0.1
        c.text(gx + group * 0.4, y0 + h + 3.5, str(k + 1), size=2.4, anchor="middle", fill=INK)
        if "seats" not in f:
            continue
        for p, seat in enumerate(f["seats"]):
            bx = gx + p * bw
            bh = h * seat["win_rate"]
            c.rect(bx, y0 + h - bh, bw * 0.85, bh, fill=SEAT_COLOURS[p % len(SEAT_COLOURS)])
            _whisker(c, bx + bw * 0.42, y0 + h - h * seat["ci95"][0], y0 + h - h * seat["ci95"][1])


def _means(c: Canvas, ok: list[SettingResult], n: int, key: str, x0: float, y0: float, w: float, h: float,
           vals: list[dict]) -> None:
    if not vals:
        return
    lo = min(min(v["ci95"][0] for v in vals), 0.0)
    hi = max(max(v["ci95"][1] for v in vals), 1e-9)
    hi += 0.12 * (hi - lo)  # room for the value above the highest whisker
    span = (hi - lo) or 1.0
    c.text(x0 - 1, y0 + 1, f"{hi:.3g}", size=2.2, anchor="end", fill=INK)
    c.text(x0 - 1, y0 + h, f"{lo:.3g}", size=2.2, anchor="end", fill=INK)
    group = w / max(1, len(ok))

    def y(v: float) -> float:
        return y0 + h - h * (v - lo) / span

    for k, s in enumerate(ok):
        f = s.players.get(n, {})
        cx = x0 + k * group + group / 2
        c.text(cx, y0 + h + 3.5, str(k + 1), size=2.4, anchor="middle", fill=INK)
        if key not in f:
            continue
        m = f[key]
        c.rect(cx - group * 0.3, y(m["mean"]), group * 0.6, y(lo) - y(m["mean"]), fill="#9ecae1", stroke="#0072B2",
               stroke_width=0.25)
        _whisker(c, cx, y(m["ci95"][0]), y(m["ci95"][1]))
        c.text(cx, y(m["ci95"][1]) - 1, f"{m['mean']:.3g}", size=2.2, anchor="middle", fill=INK)


def _length_panel(c: Canvas, ok: list[SettingResult], n: int, x0: float, y0: float, w: float, h: float) -> None:
    c.line((x0, y0 + h), (x0 + w, y0 + h), stroke=INK, stroke_width=0.3)
    c.line((x0, y0), (x0, y0 + h), stroke=INK, stroke_width=0.3)
    c.text(x0 + w / 2, y0 - 2.5, "game length, player turns (mean, 95% interval)", size=2.6, anchor="middle",
           fill=INK)
    vals = [s.players[n]["length"] for s in ok if n in s.players and "length" in s.players[n]]
    _means(c, ok, n, "length", x0, y0, w, h, vals)
