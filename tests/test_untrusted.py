"""A design is untrusted input (issue 13): it reads only its own folder, every size and count
in it is bounded, and every mistake is one `file:line: ...; expected ...` message, exit 2,
nothing written. Each test makes one hostile or careless design from the data-table
fixture and checks the exact message."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from clirun import run

from pnp.limits import LIMITS, Limit

FIXTURES = Path(__file__).resolve().parent / "fixtures"
DESIGNS = Path(__file__).resolve().parent.parent / "designs"


def deck(tmp_path: Path, source: Path = FIXTURES / "deck-csv") -> Path:
    shutil.copytree(source, tmp_path / "d")
    return tmp_path / "d"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def refused(tmp_path: Path, expected: str, args: tuple[str, ...] = ("build", "d", "--out", "out", "--no-exports")):
    result = run(list(args), tmp_path)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.output == expected + "\n"
    assert not (tmp_path / "out").exists(), "nothing may be written for a refused design"


# --- confinement ------------------------------------------------------------------------

OUTSIDE = "expected a file inside d/ (name a shared folder with --allow-dir)"


def test_a_table_named_by_absolute_path_is_refused(tmp_path):
    d = deck(tmp_path)
    (tmp_path / "secret.csv").write_text("title,power,colour\nkey,1,#fff\n")
    edit(d / "design.yaml", "data: cards.csv", f"data: {tmp_path / 'secret.csv'}")
    refused(tmp_path, f"d/design.yaml:11: file '{tmp_path / 'secret.csv'}' is an absolute path outside the design "
                      f"folder; {OUTSIDE}")


def test_a_table_reached_by_dotdot_is_refused(tmp_path):
    d = deck(tmp_path)
    (tmp_path / "secret.csv").write_text("title,power,colour\nkey,1,#fff\n")
    edit(d / "design.yaml", "data: cards.csv", "data: ../secret.csv")
    refused(tmp_path, f"d/design.yaml:11: file '../secret.csv' is outside the design folder; {OUTSIDE}")


def test_a_symlink_pointing_out_of_the_design_is_refused(tmp_path):
    d = deck(tmp_path)
    (tmp_path / "secret.csv").write_text("title,power,colour\nkey,1,#fff\n")
    (d / "cards.csv").unlink()
    (d / "cards.csv").symlink_to(tmp_path / "secret.csv")
    refused(tmp_path, f"d/design.yaml:11: file 'cards.csv' is a link to {tmp_path / 'secret.csv'}, outside the "
                      f"design folder; {OUTSIDE}")


def test_a_symlink_inside_the_design_is_followed(tmp_path):
    d = deck(tmp_path)
    (d / "tables").mkdir()
    (d / "cards.csv").rename(d / "tables" / "cards.csv")
    (d / "cards.csv").symlink_to(d / "tables" / "cards.csv")
    result = run(["list", "d"], tmp_path)
    assert result.exit_code == 0, result.output
    assert "cards                card     4 faces" in result.output


def test_allow_dir_shares_a_folder_on_purpose(tmp_path):
    d = deck(tmp_path)
    (tmp_path / "shared").mkdir()
    (d / "cards.csv").rename(tmp_path / "shared" / "cards.csv")
    (d / "templates" / "front.svg.j2").rename(tmp_path / "shared" / "front.svg.j2")
    edit(d / "design.yaml", "data: cards.csv", "data: ../shared/cards.csv")
    assert run(["list", "d"], tmp_path).exit_code == 2
    for args in (["list", "d", "--allow-dir", "shared"], ["--allow-dir", "shared", "list", "d"]):
        result = run(args, tmp_path)
        assert result.exit_code == 0, result.output
        assert "cards                card     4 faces" in result.output
    assert run(["list", "d"], tmp_path).exit_code == 2, "--allow-dir lasts one command"


def test_a_static_svg_outside_is_refused(tmp_path):
    d = deck(tmp_path)
    (tmp_path / "art.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm"/>')
    edit(d / "design.yaml", "    template: token.svg.j2", "    svg: ../art.svg")
    edit(d / "design.yaml", "    data:\n      - {label: A, count: 3}\n      - {label: B}\n", "")
    refused(tmp_path, f"d/design.yaml:20: file '../art.svg' is outside the design folder; {OUTSIDE}")


def test_a_template_cannot_include_a_file_outside(tmp_path):
    d = deck(tmp_path)
    (tmp_path / "secret.j2").write_text("key")
    (d / "templates" / "token.svg.j2").write_text('{% include "../secret.j2" %}\n')
    msg = f"template '../secret.j2' is outside the design folder; {OUTSIDE}"
    refused(tmp_path, f"d/templates/token.svg.j2:1: {msg} (filling 2 rows: d/design.yaml:20, d/design.yaml:21)")


def test_a_template_cannot_include_through_a_symlink(tmp_path):
    d = deck(tmp_path)
    (tmp_path / "secret.j2").write_text("key")
    (d / "templates" / "part.j2").symlink_to(tmp_path / "secret.j2")
    (d / "templates" / "token.svg.j2").write_text('\n{% include "part.j2" %}\n')
    msg = f"template 'part.j2' is a link to {tmp_path / 'secret.j2'}, outside the design folder; {OUTSIDE}"
    refused(tmp_path, f"d/templates/token.svg.j2:2: {msg} (filling 2 rows: d/design.yaml:20, d/design.yaml:21)")


def test_a_fifo_is_refused_before_it_is_read(tmp_path):
    d = deck(tmp_path)
    (d / "cards.csv").unlink()
    os.mkfifo(d / "cards.csv")  # reading it would block for ever
    refused(tmp_path, "d/design.yaml:11: file 'cards.csv' is not a regular file (a FIFO); expected a file")


def test_design_yaml_pointing_at_dev_zero_is_refused(tmp_path):
    d = deck(tmp_path)
    (d / "design.yaml").unlink()
    (d / "design.yaml").symlink_to("/dev/zero")
    refused(tmp_path, f"d/design.yaml: 'design.yaml' is a link to /dev/zero, outside the design folder; {OUTSIDE}")


def test_design_yaml_that_is_a_fifo_is_refused(tmp_path):
    d = deck(tmp_path)
    (d / "design.yaml").unlink()
    os.mkfifo(d / "design.yaml")
    refused(tmp_path, "d/design.yaml: 'd/design.yaml' is not a regular file (a FIFO); expected a file")


# --- YAML -------------------------------------------------------------------------------


def test_a_control_character_in_yaml_is_a_message_for_build_and_list(tmp_path):
    d = deck(tmp_path)
    edit(d / "design.yaml", "title: Table Deck", "title: Table\x01Deck")
    expected = ('d/design.yaml:3: control character U+0001 at column 15; expected printable text (delete it, or '
                'write it as "\\x01" inside double quotes)')
    refused(tmp_path, expected)
    refused(tmp_path, expected, ("list", "d"))


def test_a_yaml_alias_bomb_is_refused_without_expanding_it(tmp_path):
    d = deck(tmp_path)
    lines = ['  a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):  # 9 ** 10 values once expanded
        lines.append(f"  {chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 9) + "]")
    edit(d / "design.yaml", "meta:", "rules:\n" + "\n".join(lines) + "\nmeta:")
    refused(tmp_path, "d/design.yaml:8: this value expands to 597871 values (each alias counted as often as it is "
                      "used); expected at most 500000 values")


def test_a_recursive_alias_is_refused(tmp_path):
    d = deck(tmp_path)
    edit(d / "design.yaml", "meta:", "rules: &r {loop: *r}\nmeta:")
    refused(tmp_path, "d/design.yaml:2: recursive alias: this value contains an alias of itself; expected aliases "
                      "(*name) to refer to values that do not contain them")


def test_nesting_900_levels_deep_is_refused(tmp_path):
    d = deck(tmp_path)
    edit(d / "design.yaml", "meta:", "rules: {deep: " + "[" * 900 + "]" * 900 + "}\nmeta:")
    refused(tmp_path, "d/design.yaml:2: lists and mappings nested more than 64 levels deep; expected at most 64 "
                      "levels")


def test_a_yaml_file_too_large_is_refused_before_it_is_parsed(tmp_path):
    d = deck(tmp_path)
    with open(d / "design.yaml", "a", encoding="utf-8") as f:
        f.write(("# " + "x" * 98 + "\n") * 40_001)
    size = (d / "design.yaml").stat().st_size
    refused(tmp_path, f"d/design.yaml: 'design.yaml' is {size} bytes; expected at most 4000000 bytes (size of "
                      "design.yaml or of a YAML data table)")


def test_values_yaml_cannot_construct_are_messages(tmp_path):
    d = deck(tmp_path)
    edit(d / "design.yaml", "  players: 2", "  players: 2\n  year: " + "1" * 5000 + "\n  date: 2024-13-45")
    result = run(["list", "d"], tmp_path)
    assert result.exit_code == 2, result.output
    assert result.output == "d/design.yaml:5: a number of 5000 digits; expected at most 4300 digits\n"
    assert "2024-13-45" not in result.output, "a date stays the text the designer wrote"


# --- counts, rows, sizes ---------------------------------------------------------------------


def test_a_count_of_a_billion_in_yaml_is_refused(tmp_path):
    d = deck(tmp_path)
    edit(d / "design.yaml", "    count: 2\n", "    count: 1000000000\n")
    refused(tmp_path, "d/design.yaml:22: components.tokens.count: 1000000000 is too large; expected at most 10000",
            ("list", "d"))


def test_a_count_of_a_billion_in_a_csv_row_is_refused(tmp_path):
    d = deck(tmp_path)
    edit(d / "cards.csv", "Water,5,#0072b2,1", "Water,5,#0072b2,1000000000")
    refused(tmp_path, "d/cards.csv:3: count 1000000000 is too large; expected at most 10000 copies of one face",
            ("list", "d"))


def test_too_many_rows_are_refused(tmp_path):
    d = deck(tmp_path)
    rows = "".join(f"Card {i},1,#777777,1\n" for i in range(20_001))
    (d / "cards.csv").write_text("title,power,colour,count\n" + rows)
    refused(tmp_path, "d/cards.csv:20002: more than 20000 rows; expected at most 20000 rows in one data table",
            ("list", "d"))


def test_a_million_row_csv_is_refused_by_its_size(tmp_path):
    d = deck(tmp_path)
    with open(d / "cards.csv", "w", encoding="utf-8") as f:
        f.write("title,power,colour,count\n")
        f.writelines(f"Card {i},1,#777777,1\n" for i in range(1_000_000))
    size = (d / "cards.csv").stat().st_size
    refused(tmp_path, f"d/cards.csv: 'cards.csv' is {size} bytes; expected at most 8000000 bytes (size of a CSV "
                      "data table)", ("list", "d"))


def test_a_csv_field_over_the_limit_is_a_message(tmp_path):
    d = deck(tmp_path)
    edit(d / "cards.csv", "Water,", "W" + "a" * 200_000 + "ter,")
    refused(tmp_path, 'd/cards.csv:3: a cell is longer than 100000 characters; expected at most 100000 characters '
                      'in one cell (is a quote " left open above?)', ("list", "d"))


def test_an_empty_csv_is_an_error_not_an_empty_deck(tmp_path):
    d = deck(tmp_path)
    (d / "cards.csv").write_text("")
    refused(tmp_path, "d/cards.csv:1: the table is empty; expected a header line of column names, then one row per "
                      "face", ("list", "d"))
    (d / "cards.csv").write_text("title,power,colour,count\n")
    refused(tmp_path, "d/cards.csv:1: the table has column names but no rows; expected one row per face under the "
                      "header line", ("list", "d"))


def test_a_deck_whose_counts_are_all_zero_is_a_warning(tmp_path):
    d = deck(tmp_path)
    (d / "cards.csv").write_text("title,power,colour,count\nA,1,#777777,0\n")
    result = run(["list", "d"], tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == ("d/design.yaml:8: warning: components.cards makes no copies (every "
                                              "count is 0); it is left out of the print sheets")


def test_too_many_copies_in_a_design_are_refused(tmp_path):
    d = deck(tmp_path)
    rows = "".join(f"Card {i},1,#777777,10000\n" for i in range(6))
    (d / "cards.csv").write_text("title,power,colour,count\n" + rows)
    refused(tmp_path, "d/design.yaml:8: the design makes 60005 copies (components.cards: 60000); expected at most "
                      "50000 copies (components in one design's box (every copy of every face))", ("list", "d"))


def test_board_parameters_that_size_work_are_bounded(tmp_path):
    d = deck(tmp_path, DESIGNS / "three-stars")
    edit(d / "design.yaml", "columns: [0, 3]", "columns: [0, 100000]")
    edit(d / "design.yaml", "triangle: 30mm", "triangle: 30000mm")
    refused(tmp_path, "d/design.yaml:47: components.board.params.triangle: 30000 mm is too long; expected at most "
                      "2000 mm\n"
                      "d/design.yaml:50: components.board.params.regions.2.columns.1: 100000 is too large; expected "
                      "at most 100", ("list", "d"))


def test_a_board_too_large_overall_is_refused_before_it_is_drawn(tmp_path):
    d = deck(tmp_path, DESIGNS / "tubo")
    text = (d / "design.yaml").read_text(encoding="utf-8")
    assert "columns: 7" in text and "cell: 25mm" in text
    edit(d / "design.yaml", "columns: 7", "columns: 26")
    edit(d / "design.yaml", "cell: 25mm", "cell: 90mm")
    line = next(i for i, s in enumerate((d / "design.yaml").read_text().splitlines(), 1) if s == "  board:")
    result = run(["list", "d"], tmp_path)
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"d/design.yaml:{line}: components.board: a 2364 x ")
    assert result.output.endswith("; expected at most 2000 mm a side\n")


def test_a_card_too_large_for_the_paper_names_its_component(tmp_path):
    d = deck(tmp_path)
    edit(d / "design.yaml", "size: euro-poker", "size: {width: 300mm, height: 400mm}")
    refused(tmp_path, "d/design.yaml:8: components.cards: a 300 x 400 mm face with 3 mm bleed does not fit on A4; "
                      "expected a smaller size or a larger paper")


def test_colours_that_are_not_colours_are_errors(tmp_path):
    d = deck(tmp_path, DESIGNS / "three-stars")
    edit(d / "design.yaml", 'colour: "#0072B2"', "colour: notacolour")
    edit(d / "design.yaml", 'colour: "#D55E00"', 'colour: "#12345"')
    refused(tmp_path, "d/design.yaml:64: components.pieces.params.colours.0.colour: 'notacolour' is not a colour; "
                      "expected #rrggbb or #rgb, e.g. #0072B2\n"
                      "d/design.yaml:65: components.pieces.params.colours.1.colour: '#12345' is not a colour; "
                      "expected #rrggbb or #rgb, e.g. #0072B2", ("list", "d"))


def test_players_are_bounded(tmp_path):
    d = deck(tmp_path)
    edit(d / "design.yaml", "players: 2", "players: 2-1000000")
    refused(tmp_path, "d/design.yaml:4: meta.players.max: 1000000 is too large; expected at most 100", ("list", "d"))


# --- templates ----------------------------------------------------------------------------


@pytest.mark.parametrize("body,message", [
    ("{{ 'x' * 10**9 }}", "the result of *: 1000000000; expected at most 1000000 characters"),
    ("{% for i in range(10**9) %}{% endfor %}", "range() of 1000000000 items; expected at most 10000 items"),
    ("{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}",
     "more than 1000000 steps (loop iterations, calls, filters and their items) in one rendering, as an endless "
     "recursion or deeply nested loops make; expected at most 1000000 steps"),
    ("{% set ns = namespace(x='ab') %}{% for i in range(40) %}{% set ns.x = ns.x ~ ns.x %}{% endfor %}",
     "the result of ~: 1048576; expected at most 1000000 characters"),
    ("{{ 'x'|center(10**9) }}", "the width given to center: 1000000000; expected at most 1000000 characters"),
    ("{{ '%1000000000d' % 1 }}", "a width in a format string: 1000000000; expected at most 1000000 characters"),
    ("{{ ('x' * 1000)|replace('x', 'y' * 10000) }}",
     "the result of replace: 10000000; expected at most 1000000 characters"),
    ("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
     "recursion too deep (a macro or include that calls itself without end?); expected a template that ends"),
    ("{{ label + 1 }}", 'TypeError: can only concatenate str (not "int") to str (filling row d/design.yaml:20); '
     "expected an expression that works on the row's values (a text cell needs |int or |float, or the column "
     "declared in columns: {name: number})"),
    ("{{ [1].append(2) }}", "access to attribute 'append' of 'list' object is unsafe. (filling row "
     "d/design.yaml:20); expected every name used to be a column of the data table or one of: index, width, height, "
     "bleed, safe, component, design"),
])
def test_template_rendering_is_bounded(tmp_path, body, message):
    d = deck(tmp_path)
    (d / "templates" / "token.svg.j2").write_text("\n" + body + "\n")
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 2, result.output
    first = result.output.splitlines()[0]
    if "(filling row" not in message:
        message += " (filling row d/design.yaml:20)"
    message = message.replace("(filling row d/design.yaml:20)", "(filling 2 rows: d/design.yaml:20, d/design.yaml:21)")
    assert first == f"d/templates/token.svg.j2:2: {message}"
    assert not (tmp_path / "out").exists()


def test_exponential_macro_calls_stop_at_the_step_budget(tmp_path, monkeypatch):
    monkeypatch.setitem(LIMITS, "render_steps", Limit(20_000, "steps", "test"))
    d = deck(tmp_path)
    (d / "templates" / "token.svg.j2").write_text(
        "{% macro m(n) %}{% if n %}{{ m(n - 1) }}{{ m(n - 1) }}{% endif %}{% endmacro %}\n{{ m(40) }}\n")
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0].startswith("d/templates/token.svg.j2:1: more than 20000 steps")


def test_template_output_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setitem(LIMITS, "render_output", Limit(50_000, "characters", "test"))
    d = deck(tmp_path)
    (d / "templates" / "token.svg.j2").write_text(
        "{% set x %}\n{% for i in range(1000) %}<!-- 0123456789012345678901234567890123456789012345678 -->"
        "{% endfor %}\n{% endset %}")
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0] == ("d/templates/token.svg.j2:2: the text rendered is longer than 50000 "
                                             "characters; expected at most 50000 characters (filling 2 rows: "
                                             "d/design.yaml:20, d/design.yaml:21)")


ROWS = " (filling 2 rows: d/design.yaml:20, d/design.yaml:21)"
BUILT = "the strings and lists this rendering builds add up to more than 20000000 characters; expected at most " \
        "20000000 characters"
LONE = "the text holds U+D800, half of a UTF-16 surrogate pair without its other half, which is not a character; " \
       "expected Unicode text"


@pytest.mark.parametrize("body,line", [  # issue 29: each ran past 45 s or took 1.5-2 GB, or was an internal error
    ("{{ lipsum(100000) }}", "2: the text lipsum would make: 161600000; expected at most 1000000 characters" + ROWS),
    ("{{ (['x' * 1000000] * 1000000)|map('upper')|join }}", "2: " + BUILT + ROWS),
    ("{{ ([[0] * 999] * 1000)|sum(start=[]) }}", "2: " + BUILT + ROWS),
    ("{% for i in range(10000) %}{% for j in range(99) %}{% set x = 'x' * 1000000 %}{% endfor %}{% endfor %}",
     "2: " + BUILT + ROWS),
    ("{{ '{0:{1}}'.format('x', 1500000000) }}", "2: a width in a format string: 1500000000; expected at most "
     "1000000 characters" + ROWS),
    ("{{ ('x' * 1000000).translate({120: 'y' * 1000000}) }}", "2: the result of translate: 1000000000000; expected "
     "at most 1000000 characters" + ROWS),
    ("<text>{{ '\\ud800' }}</text>", "2: " + LONE + " (write \\U0001F600 for 😀, not \\ud83d\\ude00)" + ROWS),
    ("{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}", "2: template syntax error: brackets nested more than 20 levels "
     "deep; expected at most 20 levels of ( [ { in an expression"),
    ("{% for i in [1] %}\n" * 21 + "{% endfor %}" * 21, "22: template syntax error: {% %} blocks nested more than 20 "
     "levels deep ({% for %} here); expected at most 20 levels"),
    ("{{ 'a'" + "|upper" * 3000 + " }}", "2: template syntax error: an expression nested too deeply to compile (a "
     "chain of hundreds of operators or filters?); expected simpler expressions (parts set apart with {% set %})"),
    ("<!DOCTYPE svg>\n<rect/>", "2: the template writes a <!DOCTYPE>, refused in SVG" + ROWS + "; expected SVG "
     "markup without <!DOCTYPE> or <!ENTITY> (a template draws inside the face's <svg>, and pnp reads no DTD)"),
])
def test_costly_or_broken_templates_are_one_message_at_their_line(tmp_path, body, line):
    d = deck(tmp_path)
    (d / "templates" / "token.svg.j2").write_text("\n" + body + "\n", encoding="utf-8")
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[0] == "d/templates/token.svg.j2:" + line
    assert not (tmp_path / "out").exists()


def test_a_value_folded_when_compiling_is_no_internal_error(tmp_path):
    """`width='nan'|float` was folded into the compiled template as the name nan: a NameError (exit 3)."""
    d = deck(tmp_path)
    (d / "templates" / "token.svg.j2").write_text("{% set w = 'nan'|float %}\n<rect width=\"{{ w }}\" height=\"1\"/>\n"
                                                  "<text>{{ 1e999 }} {{ label }}</text>\n", encoding="utf-8")
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("d/templates/token.svg.j2"), result.output
    assert "internal error" not in result.output and "nan" in result.output.splitlines()[0]


def test_a_lone_surrogate_in_a_yaml_table_is_a_message_and_a_pair_is_its_character(tmp_path):
    d = deck(tmp_path)
    edit(d / "design.yaml", "{label: A, count: 3}", '{label: "\\ud800", count: 3}')
    refused(tmp_path, f'd/design.yaml:20: {LONE} (write "\\U0001F600" for 😀)', ("list", "d"))
    edit(d / "design.yaml", "    data:\n      - {label: \"\\ud800\", count: 3}\n      - {label: B}\n",
         "    data: tokens.yaml\n")
    (d / "tokens.yaml").write_text('- {label: B}\n- {label: "x\\udc00y"}\n', encoding="utf-8")
    refused(tmp_path, f'd/tokens.yaml:2: {LONE.replace("D800", "DC00")} (write "\\U0001F600" for 😀)', ("list", "d"))
    (d / "tokens.yaml").write_text('- {label: "\\ud83d\\ude00"}\n', encoding="utf-8")  # as JSON writes 😀
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 0, result.output
    assert ">\U0001F600</text>" in (tmp_path / "out" / "d" / "svg" / "tokens-1.svg").read_text(encoding="utf-8")


# --- ready SVG files ----------------------------------------------------------------------------


@pytest.mark.parametrize("svg,message", [
    (b'<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm">\n<text>\xe9t\xe9</text></svg>',
     "d/art.svg:2: byte 0xE9 at column 7 is not UTF-8; expected a UTF-8 text file (re-save it as UTF-8)"),
    (b'<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm">\n<rect>\n</svg>',
     "d/art.svg:3: the SVG is not well-formed XML (Opening and ending tag mismatch: rect line 2 and svg, line 3, "
     "column 7); expected valid SVG markup"),
    (b'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
     b'<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm"><text>&x;</text></svg>',
     "d/art.svg:2: the SVG declares an XML entity; expected plain SVG markup without <!DOCTYPE> or <!ENTITY> (pnp "
     "reads no DTD)"),
    (b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>',
     'd/art.svg:1: the SVG has no size; expected width and height above 0 (e.g. width="63mm" height="88mm") or a '
     'viewBox="0 0 63 88"'),
    (b'<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm">\n'
     b'<image href="../secret.png" width="5" height="5"/></svg>',
     "d/art.svg:2: <image>: image '../secret.png' is outside the design folder; expected a file inside d/ (name a "
     "shared folder with --allow-dir)"),  # art files of the design are drawn (issue 15), never from outside it
    (b'<html/>', "d/art.svg:1: the root element is <html>; expected an <svg> document"),
])
def test_a_ready_svg_must_be_plain_well_formed_svg(tmp_path, svg, message):
    d = deck(tmp_path)
    (d / "art.svg").write_bytes(svg)
    edit(d / "design.yaml", "    template: token.svg.j2", "    svg: art.svg")
    edit(d / "design.yaml", "    data:\n      - {label: A, count: 3}\n      - {label: B}\n", "")
    refused(tmp_path, message, ("list", "d"))


# --- rules texts -------------------------------------------------------------------------------


def rules_case(tmp_path: Path, text: str) -> Path:
    d = deck(tmp_path, DESIGNS / "three-stars")
    (d / "rules.en.md").write_text(text, encoding="utf-8")
    (d / "rules.fr.md").write_text("Rien.\n", encoding="utf-8")
    return d


RULES = ("rules", "d", "--lang", "en", "--out", "out")


@pytest.mark.parametrize("text,message", [
    ("# Setup\n\nSee ![](pnp:99).\n", "d/rules.en.md:3: image 'pnp:99' is not one of this text's diagrams; expected "
     "{{ diagram(...) }}, {{ component_list() }} or {{ face_grid(...) }} (they make the pnp:N images)"),
    ('# Board\n\n{{ diagram("three_stars.board", width="abc") }}\n',
     "d/rules.en.md:3: diagram 'three_stars.board': width='abc' is not a width in mm; expected a number above 0 and "
     "at most 2000, such as width=60"),
    ('{{ face_grid("placement-cards", columns=10**9) }}\n',
     "d/rules.en.md:1: face_grid: columns=1000000000; expected a whole number from 1 to 20"),
    ('{{ diagram("three_stars.example", step=10**9) }}\n',
     "d/rules.en.md:1: diagram 'three_stars.example': step=1000000000 is too large; expected at most 10000"),
    ("Intro.\n\n![](../art.svg)\n", f"d/rules.en.md:3: image '../art.svg' is outside the design folder; {OUTSIDE}"),
    ('{% include "../secret.md" %}\n', f"d/rules.en.md:1: template '../secret.md' is outside the design folder; "
     f"{OUTSIDE}"),
    ("![](missing.svg)\n", "d/rules.en.md:1: image 'missing.svg' not found; expected an SVG file in the design "
     "folder (images stay vector) or a {{ diagram(...) }}"),
    ('{{ "x" * 600000 }}\n', "d/rules.en.md:1: the text rendered is longer than 500000 characters; expected at most "
     "500000 characters"),
    ("| " + "a | " * 100 + "\n| " + "--- | " * 100 + "\n",
     "d/rules.en.md:1: a table of 100 columns does not fit the page; expected at most 21 columns"),
    # issue 29: a warning and a white square (the PDF written), 7 s and 220 MB, a message without its line
    ("# Rules\n\nHello {{ '\\ud800' }}\n", f"d/rules.en.md:3: {LONE} (write \\U0001F600 for 😀, not \\ud83d\\ude00)"),
    ("{{ lipsum(100000) }}\n", "d/rules.en.md:1: the text lipsum would make: 161600000; expected at most 1000000 "
     "characters"),
    ("Intro.\n\n{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}\n", "d/rules.en.md:3: Jinja2 syntax error: brackets nested "
     "more than 20 levels deep; expected at most 20 levels of ( [ { in an expression"),
])
def test_rules_text_mistakes_are_messages(tmp_path, text, message):
    rules_case(tmp_path, text)
    (tmp_path / "art.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9mm" height="9mm"/>')
    (tmp_path / "secret.md").write_text("key\n")
    refused(tmp_path, message, RULES)


def test_a_rulebook_image_is_read_through_the_design_folder(tmp_path):
    d = rules_case(tmp_path, "# Art\n\n![A <b> & c](art/a.svg)\n")
    (d / "art").mkdir()
    (d / "art" / "a.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="30mm" height="10mm">'
                                     '<rect width="30" height="10" fill="#0072B2"/></svg>')
    result = run(list(RULES), tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "d" / "d-rules-en-a4.pdf").is_file()


# --- pnp new -------------------------------------------------------------------------------


def test_new_with_a_300_character_name_is_refused(tmp_path):
    result = run(["new", "a" * 300], tmp_path)
    assert result.exit_code == 2
    assert result.output == "aaaaaaaaaaaaaaaaaaaa...: the name has 300 characters; expected at most 64, e.g. my-game\n"
    assert not (tmp_path / "designs").exists()


def test_new_from_a_folder_that_is_not_a_design_copies_nothing(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "secret.txt").write_text("key")
    result = run(["new", "copy", "--from", "notes"], tmp_path)
    assert result.exit_code == 2
    assert result.output == ("notes: not a design: no design.yaml; expected --from to name a design folder or a "
                             "design under designs/ (nothing was copied)\n")
    assert not (tmp_path / "designs").exists()


def test_new_from_a_design_with_a_link_out_copies_nothing(tmp_path):
    d = deck(tmp_path)
    (d / "keys").symlink_to(tmp_path)
    result = run(["new", "copy", "--from", "d"], tmp_path)
    assert result.exit_code == 2
    assert result.output == (f"d: 'keys' is a link to {tmp_path}, outside the design; expected a design whose files "
                             "are its own (nothing was copied)\n")
    assert not (tmp_path / "designs").exists()


def test_new_from_a_design_copies_it(tmp_path):
    deck(tmp_path)
    result = run(["new", "copy", "--from", "d"], tmp_path)
    assert result.exit_code == 0, result.output
    assert "title: Copy" in (tmp_path / "designs" / "copy" / "design.yaml").read_text()


# --- the command boundary -----------------------------------------------------------------


def test_a_bug_is_one_line_naming_the_design_and_debug_shows_the_traceback(tmp_path, monkeypatch):
    deck(tmp_path)

    def broken(*args, **kwargs):
        raise RuntimeError("something pnp did not expect")

    monkeypatch.setattr("pnp.build.describe_designs", broken)
    result = run(["list", "d"], tmp_path)
    assert result.exit_code == 3
    assert result.output == ("pnp: internal error in `pnp list d` (design d): RuntimeError: something pnp did not "
                             "expect; this is a bug in pnp, please report it with the design (`pnp --debug ...` shows "
                             "the traceback)\n")
    result = run(["--debug", "list", "d"], tmp_path)
    assert isinstance(result.exception, RuntimeError)


def test_ctrl_c_is_one_line_and_exit_130(tmp_path, monkeypatch):
    deck(tmp_path)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    def leave(code):
        raise SystemExit(code)

    monkeypatch.setattr("pnp.build.describe_designs", interrupted)
    monkeypatch.setattr("pnp.cli._exit", leave)  # the real one ends the process at once, pytest with it
    result = run(["list", "d"], tmp_path)
    assert result.exit_code == 130
    assert result.output == "interrupted: the output holds the last complete build\n"


def test_a_rules_text_linked_to_dev_zero_or_a_fifo_is_refused_before_the_build_reads_it(tmp_path):
    d = rules_case(tmp_path, "# Rules\n")
    (d / "rules.zz.md").symlink_to("/dev/zero")
    refused(tmp_path, f"d/rules.zz.md: rules text 'rules.zz.md' is a link to /dev/zero, outside the design folder; "
                      f"{OUTSIDE}")
    (d / "rules.zz.md").unlink()
    os.mkfifo(d / "rules.zz.md")
    refused(tmp_path, "d/rules.zz.md: rules text 'rules.zz.md' is not a regular file (a FIFO); expected a file")


def test_svg_values_the_renderers_cannot_draw_are_messages(tmp_path):
    d = deck(tmp_path)
    (d / "templates" / "token.svg.j2").write_text('<text x="{{ label }}" y="3">{{ label }}</text>\n')
    refused(tmp_path, 'd/templates/token.svg.j2: the SVG it makes (filling row d/design.yaml:20) has <text x="A">, '
                      "which cannot be drawn; expected numbers (with optional units), e.g. 12.5 or 1,2 3,4\n"
                      'd/templates/token.svg.j2: the SVG it makes (filling row d/design.yaml:21) has <text x="B">, '
                      "which cannot be drawn; expected numbers (with optional units), e.g. 12.5 or 1,2 3,4")
    (d / "art.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm">\n'
                               '<rect width="3" height="3" style="fill"/></svg>')
    edit(d / "design.yaml", "    template: token.svg.j2", "    svg: art.svg")
    edit(d / "design.yaml", "    data:\n      - {label: A, count: 3}\n      - {label: B}\n", "")
    refused(tmp_path, 'd/art.svg:2: the SVG has <rect style="fill">, which cannot be drawn; expected declarations '
                      "such as fill: #000; stroke-width: 0.3", ("list", "d"))


def test_a_value_found_drawable_is_remembered_but_not_a_bad_one_beside_it():
    """The check of drawable values remembers the good ones (the faces of a template share most): a face with the
    same attribute and another value, or a style that differs by one declaration, is checked again."""
    from lxml import etree

    from pnp.confine import check_parsed
    from pnp.errors import DesignError

    def check(body: str) -> None:
        text = f'<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm">{body}</svg>'
        check_parsed(etree.fromstring(text), text, "card.svg")

    for _ in range(2):
        check('<rect width="3mm" height="2" style="stroke-width: 0.3; opacity: 0.5"/>')
    with pytest.raises(DesignError, match='<rect width="3furlongs">'):
        check('<rect width="3furlongs" height="2"/>')
    with pytest.raises(DesignError, match="stroke-width"):
        check('<rect width="3mm" height="2" style="stroke-width: thick; opacity: 0.5"/>')
    with pytest.raises(DesignError, match='opacity="half"'):
        check('<rect width="3mm" opacity="half"/>')

# --- found by fuzzing: generator parameters that crashed a game's code ----------------------------


def test_a_lozenge_board_without_regions_is_refused(tmp_path):
    d = deck(tmp_path, DESIGNS / "three-stars-lozenge")
    text = (d / "design.yaml").read_text(encoding="utf-8")
    start = text.index("      regions:")
    end = text.index("\n\n", start)
    (d / "design.yaml").write_text(text[:start] + "      regions: {}" + text[end:], encoding="utf-8")
    line = text[:start].count("\n") + 1
    refused(tmp_path, f"d/design.yaml:{line}: components.board.params.regions: 0 items; expected at least 1",
            ("list", "d"))


def test_a_region_running_backwards_is_refused(tmp_path):
    d = deck(tmp_path, DESIGNS / "three-stars")
    edit(d / "design.yaml", "columns: [0, 3]", "columns: [3, 0]")
    refused(tmp_path, "d/design.yaml:50: components.board.params.regions.2.columns: [3, 0] runs backwards; expected "
                      "[first, last] with first <= last", ("list", "d"))


def test_close_pieces_are_bounded_before_their_faces_are_made(tmp_path):
    d = deck(tmp_path, DESIGNS / "tubo")
    edit(d / "design.yaml", "close_pieces: 1", "close_pieces: 10000")
    line = next(i for i, s in enumerate((d / "design.yaml").read_text().splitlines(), 1) if "close_pieces" in s)
    refused(tmp_path, f"d/design.yaml:{line}: components.stocks.params.close_pieces: 10000 is too large; expected at "
                      "most 1000", ("list", "d"))


def test_two_entries_with_the_same_name_are_refused(tmp_path):
    d = deck(tmp_path, DESIGNS / "three-stars")
    edit(d / "design.yaml", '{name: red, colour: "#D55E00", symbol: square}', '{name: blue, colour: "#D55E00", '
         'symbol: square}')
    refused(tmp_path, "d/design.yaml:61: components.pieces: two faces are named 'blue'; expected each entry of the "
                      "params to have a name (or id) of its own", ("list", "d"))


def test_a_face_name_from_the_params_cannot_be_a_path(tmp_path):
    d = deck(tmp_path, DESIGNS / "tubo")
    edit(d / "design.yaml", "{name: sky,", '{name: "../../../../evil",')
    line = next(i for i, s in enumerate((d / "design.yaml").read_text().splitlines(), 1) if s == "    params:"
                and i > 60)
    refused(tmp_path, f"d/design.yaml:{line}: components.stocks: a face is named '../../../../evil-ne' from the "
                      "params; expected a plain name, without '/', '\\' or a leading '.' (it names an SVG file)",
            ("list", "d"))


def test_rulebook_facts_a_game_cannot_read_are_a_message(tmp_path):
    d = deck(tmp_path, DESIGNS / "triloopite")
    edit(d / "design.yaml", "count: 35, family: crab}", "count: 35, family: crab, start: true}")
    result = run(["rules", "d", "--lang", "en", "--out", "out"], tmp_path)
    assert result.exit_code == 2, result.output
    assert result.output.endswith("start tiles (start, crab); expected exactly one tile with start: true and count "
                                  "1\n")
    assert result.output.startswith("d/design.yaml:")


def test_a_mapping_mixing_number_and_text_keys_is_refused(tmp_path):
    d = deck(tmp_path, DESIGNS / "three-stars-lozenge")
    edit(d / "design.yaml", "star_positions: {2: 19}", "star_positions: {2: 19, two: 19}")
    line = next(i for i, s in enumerate((d / "design.yaml").read_text().splitlines(), 1) if "star_positions" in s)
    refused(tmp_path, f"d/design.yaml:{line}: key 'two' is text among number keys; expected the keys of one mapping "
                      'to be all numbers or all text (quote the numbers: "2":)', ("list", "d"))
