"""A deck with many faces: the sheets are drawn while workers paint and compile the faces (issue 16), and the
result is the same as a serial build, with or without the cache; a face that fails leaves nothing behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp import output, parallel
from pnp.build import build_designs
from pnp.cache import Cache, stored_keys
from pnp.errors import DesignError
from pnp.output import STAGE

DESIGN = """\
meta:
  title: Stream Deck
  players: 2
print: {paper: a4, bleed: 3mm}
components:
  cards:
    kind: card
    size: poker
    data: cards.csv
    template: front.svg.j2
    back: {template: back.svg.j2}
"""
FRONT = """\
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ width + 2 * bleed }}" height="{{ height + 2 * bleed }}" fill="{{ colour }}"/>
<text x="{{ width / 2 }}" y="45" font-size="{{ 14 / (number|int) }}" text-anchor="middle">{{ title }}</text>
"""
BACK = '<rect x="0" y="0" width="{{ width }}" height="{{ height }}" fill="#333333"/>\n'
ROWS = 40  # more than the 24 faces from which the build paints in workers


def deck(folder: Path, zero_rows: tuple[int, ...] = ()) -> Path:
    d = folder / "stream-deck"
    d.mkdir(parents=True)
    (d / "design.yaml").write_text(DESIGN)
    (d / "front.svg.j2").write_text(FRONT)
    (d / "back.svg.j2").write_text(BACK)
    rows = ["title,number,colour"] + [f"Card {i},{0 if i in zero_rows else i % 9 + 1},#{i * 5:02x}6080"
                                     for i in range(1, ROWS + 1)]
    (d / "cards.csv").write_text("\n".join(rows) + "\n")
    return d


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def stages(folder: Path) -> list[Path]:
    return [p for p in folder.rglob(f"{STAGE}*")] if folder.exists() else []


@pytest.mark.parametrize("eager", [False, True])
def test_streamed_cached_and_serial_builds_make_the_same_files(tmp_path, monkeypatch, eager):
    """eager: as for a deck of EAGER faces or more, the workers start before the sheets ask for the first face and
    write the svg/ files ahead (pnp.output.Stage), which the build then only moves into place."""
    monkeypatch.setattr(parallel, "ALONE", 0.0)  # workers from the first face (else a small deck is painted here)
    if eager:
        monkeypatch.setattr(parallel, "EAGER", 8)
    written = []
    monkeypatch.setattr(output, "_write_tmp", lambda final, raw, *folder, w=output._write_tmp:
                        written.append(final) or w(final, raw, *folder))
    design = deck(tmp_path)
    cache_dir = tmp_path / "cache"
    cache = Cache(cache_dir)
    build_designs([str(design)], out=tmp_path / "streamed", cache=cache, exports=False, show_progress=False)
    faces_written_at_the_end = [p for p in written if p.parent.name == "svg"]
    assert len(faces_written_at_the_end) == (0 if eager else ROWS + 1)
    assert not stages(tmp_path / "streamed")
    if eager:  # from scratch again, into the same output: nothing staged, nothing written
        staged = []
        monkeypatch.setattr(output.Stage, "discard", lambda self, d=output.Stage.discard: staged.append(
            len(list(self.root.rglob("*.svg")))) or d(self))
        result = build_designs([str(design)], out=tmp_path / "streamed", cache=Cache(None, memory=False),
                               exports=False, show_progress=False)
        assert staged == [0] and result[0].written == []
    assert cache.made("svg") == ROWS + 1
    # the workers that painted the faces stored them: one entry per face on disk, in a pack per process
    assert len(stored_keys(cache_dir, "svg")) == ROWS + 1
    assert len(list((cache_dir / "svg").iterdir())) <= 3
    again = Cache(cache_dir)  # a new process: the disk entries only
    build_designs([str(design)], out=tmp_path / "cached", cache=again, exports=False, show_progress=False)
    assert again.made("svg") == 0 and again.stats["svg.hit"] == ROWS + 1 and again.made("sheets") == 0
    monkeypatch.setattr(parallel, "cores", lambda: 1)  # everything in this process, in order
    build_designs([str(design)], out=tmp_path / "serial", cache=Cache(None, memory=False), exports=False,
                  show_progress=False)
    want = files(tmp_path / "serial" / "stream-deck")
    assert files(tmp_path / "streamed" / "stream-deck") == want
    assert files(tmp_path / "cached" / "stream-deck") == want


@pytest.mark.parametrize("workers,eager", [(2, False), (2, True), (1, False)])
def test_a_face_that_fails_reports_every_row_and_leaves_no_pdf(tmp_path, monkeypatch, workers, eager):
    monkeypatch.setattr(parallel, "cores", lambda: workers)
    monkeypatch.setattr(parallel, "ALONE", 0.0)
    if eager:  # the workers wrote svg/ files ahead: they go with the failed build
        monkeypatch.setattr(parallel, "EAGER", 8)
    design = deck(tmp_path, zero_rows=(3, 31))
    cache_dir = tmp_path / "cache"
    with pytest.raises(DesignError) as err:
        build_designs([str(design)], out=tmp_path / "out", cache=Cache(cache_dir), exports=False, show_progress=False)
    message = str(err.value)
    assert "ZeroDivisionError" in message and "cards.csv:4" in message and "cards.csv:32" in message
    assert not (tmp_path / "out" / "stream-deck").exists()
    assert not stages(tmp_path / "out")
    assert not (cache_dir / "sheets").exists()  # no PDF with a face missing is kept for the next build


def test_a_failed_rebuild_leaves_the_previous_output_and_no_stage(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "EAGER", 8)
    design = deck(tmp_path)
    out = tmp_path / "out"
    build_designs([str(design)], out=out, cache=Cache(None, memory=False), exports=False, show_progress=False)
    before = files(out / "stream-deck")
    rows = (design / "cards.csv").read_text().replace("Card 7,8,", "Card 7,0,")  # a division by zero, row 8
    (design / "cards.csv").write_text(rows.replace("Card 1,", "Card One,"))
    with pytest.raises(DesignError, match="cards.csv:8"):
        build_designs([str(design)], out=out, cache=Cache(None, memory=False), exports=False, show_progress=False)
    assert files(out / "stream-deck") == before and not stages(out)


def test_an_entry_not_yet_written_is_read_from_memory_then_from_disk(tmp_path):
    first, second = Cache(tmp_path / "c"), Cache(tmp_path / "c", memory=False)
    first.put_many("svg", [(f"{i:064x}", f"<svg>{i}</svg>") for i in range(40)])
    assert second.get("svg", f"{7:064x}") == "<svg>7</svg>"  # served whether or not the writer has finished
    first.flush()
    assert stored_keys(tmp_path / "c", "svg") == [f"{i:064x}" for i in range(40)]
    first.put_many("sheets", [(f"{i:064x}", f"%PDF {i}") for i in range(40)])  # (a kind kept a file an entry)
    assert second.get("sheets", f"{7:064x}") == "%PDF 7"
    first.flush()
    entries = [p for p in (tmp_path / "c" / "sheets").rglob("*") if p.is_file()]
    assert len(entries) == 40 and not any(p.name.startswith(".tmp") for p in entries)
    assert Cache(tmp_path / "c").get("svg", f"{39:064x}") == "<svg>39</svg>"


def test_several_designs_built_together_report_every_failing_face_of_each(tmp_path, monkeypatch):
    """The pool of tasks for several designs (faces of all designs painted together): each design's failing rows
    are reported at once, and, as for a single design, nothing is written when any design fails (the build is one
    unit: the designer fixes the rows named and builds again)."""
    monkeypatch.setattr(parallel, "ALONE", 0.0)
    good = deck(tmp_path / "a")
    bad = deck(tmp_path / "b", zero_rows=(5, 22))
    bad = bad.rename(tmp_path / "b" / "broken-deck")
    cache_dir = tmp_path / "cache"
    with pytest.raises(DesignError) as err:
        build_designs([str(good), str(bad)], out=tmp_path / "out", cache=Cache(cache_dir), exports=False,
                      show_progress=False)
    message = str(err.value)
    assert "cards.csv:6" in message and "cards.csv:23" in message and "broken-deck" in message
    assert "stream-deck" not in message.replace("broken-deck", "")
    assert not (tmp_path / "out" / "broken-deck").exists()
    assert not (tmp_path / "out" / "stream-deck").exists()


def test_several_designs_write_their_svg_files_ahead(tmp_path, monkeypatch):
    """Built together (one pool of tasks), each design's sheets task writes its svg/ files ahead into a stage
    that publishing moves into place; the files are those of a build of each design alone."""
    written = []
    monkeypatch.setattr(output, "_write_tmp", lambda final, raw, *folder, w=output._write_tmp:
                        written.append(final) or w(final, raw, *folder))
    first = deck(tmp_path / "a")
    second = deck(tmp_path / "b").rename(tmp_path / "b" / "other-deck")
    build_designs([str(first), str(second)], out=tmp_path / "together", cache=Cache(None, memory=False),
                  exports=False, show_progress=False)
    assert not [p for p in written if p.parent.name == "svg"] and not stages(tmp_path / "together")
    for design in (first, second):
        build_designs([str(design)], out=tmp_path / "alone", cache=Cache(None, memory=False), exports=False,
                      show_progress=False)
        assert files(tmp_path / "together" / design.name) == files(tmp_path / "alone" / design.name)


RULES = "# Rules\n\nEach card is played once.\n\n{{ component_list() }}\n\n{{ face_grid('cards', columns=4) }}\n"


def test_rulebooks_made_beside_the_sheets_are_those_of_a_design_built_alone(tmp_path, monkeypatch):
    """Several designs: a design's rulebooks are a task of their own, beside its print sheets' task. They are the
    bytes of the design built alone, and the cache entry they leave is the one a build of the design alone uses."""
    monkeypatch.setattr(parallel, "ALONE", 0.0)
    first = deck(tmp_path / "a")
    (first / "rules.en.md").write_text(RULES)
    second = deck(tmp_path / "b").rename(tmp_path / "b" / "other-deck")
    cache = Cache(tmp_path / "cache")
    build_designs([str(first), str(second)], out=tmp_path / "together", cache=cache, exports=False,
                  show_progress=False)
    made = files(tmp_path / "together" / first.name)
    assert "stream-deck-rules-en-a4.pdf" in made
    alone = Cache(tmp_path / "cache")  # (a new process's view of that cache: nothing in memory)
    build_designs([str(first)], out=tmp_path / "alone", cache=alone, exports=False, show_progress=False)
    assert files(tmp_path / "alone" / first.name) == made
    assert alone.made("rulebooks") == 0 and alone.made("svg") == 0
    build_designs([str(first)], out=tmp_path / "scratch", cache=Cache(None, memory=False), exports=False,
                  show_progress=False)
    assert files(tmp_path / "scratch" / first.name) == made


def test_a_face_that_fails_in_a_design_with_rulebooks_is_reported_once(tmp_path, monkeypatch):
    """One message per failing row (not one more for the rulebooks that show the face), and nothing is written."""
    monkeypatch.setattr(parallel, "ALONE", 0.0)
    good = deck(tmp_path / "a")
    bad = deck(tmp_path / "b", zero_rows=(5,)).rename(tmp_path / "b" / "broken-deck")
    (bad / "rules.en.md").write_text(RULES)
    with pytest.raises(DesignError) as err:
        build_designs([str(good), str(bad)], out=tmp_path / "out", cache=Cache(tmp_path / "cache"), exports=False,
                      show_progress=False)
    assert str(err.value).count("cards.csv:6") == 1, str(err.value)
    assert not (tmp_path / "out" / "broken-deck").exists()


def test_two_designs_with_the_same_templates_and_rows_do_not_share_their_faces(tmp_path):
    """A face's SVG names the design it was made from (its source comment: `stream-deck/front.svg.j2`): a copy of
    a deck under another folder name, built over the same cache, gets faces that name its own folder, whatever was
    built before."""
    first = deck(tmp_path / "a")
    copy = deck(tmp_path / "b").rename(tmp_path / "b" / "deck-copy")
    for design in (first, copy):
        build_designs([str(design)], out=tmp_path / "out", cache=Cache(tmp_path / "cache"), exports=False,
                      show_progress=False)
    svg = (tmp_path / "out" / "deck-copy" / "svg" / "cards-01.svg").read_text()
    assert "made by pnp from deck-copy/front.svg.j2 (row deck-copy/cards.csv:2)" in svg, svg[:200]
