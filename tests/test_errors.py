"""Bad input: one `file:line: what is wrong; what is expected` per problem, exit 2, no traceback,
nothing written. Each folder under tests/fixtures/bad/ holds a design and the exact expected output."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.loader import templates_dir
from pnp.units import UnitError, parse_length

BAD = Path(__file__).resolve().parent / "fixtures" / "bad"
CASES = sorted(p.name for p in BAD.iterdir() if (p / "expected.txt").is_file())


def run(args, cwd):
    runner = CliRunner()
    with runner.isolated_filesystem(temp_dir=None) if cwd is None else _chdir(cwd):
        return runner.invoke(main, args)


class _chdir:
    def __init__(self, path):
        self.path, self.old = path, None

    def __enter__(self):
        import os
        self.old = os.getcwd()
        os.chdir(self.path)

    def __exit__(self, *exc):
        import os
        os.chdir(self.old)


def test_every_bad_case_is_covered():
    assert set(CASES) >= {"several", "yaml-syntax", "duplicate-key", "not-utf8", "missing-files", "template-error"}


@pytest.mark.parametrize("case", CASES)
def test_bad_design_reports_every_problem_with_file_and_line(case, tmp_path):
    shutil.copytree(BAD / case, tmp_path / case)
    (tmp_path / case / "expected.txt").unlink()
    out = tmp_path / "output"
    result = run(["build", case, "--out", str(out)], tmp_path)
    expected = (BAD / case / "expected.txt").read_text(encoding="utf-8")
    expected = expected.replace("{root}/templates", str(templates_dir()))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.output == expected
    assert not out.exists(), "nothing may be written for a bad design"


def test_several_problems_are_reported_together():
    lines = (BAD / "several" / "expected.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 10
    assert [int(line.split(":")[1]) for line in lines] == [4, 6, 7, 8, 12, 13, 14, 17, 18, 19]
    assert "did you mean 'size'?" in lines[4]
    assert "did you mean 'three_stars.placements'?" in lines[6]


def test_a_bad_design_among_good_ones_stops_the_whole_build(tmp_path):
    root = Path(__file__).resolve().parent.parent
    shutil.copytree(BAD / "several", tmp_path / "several")
    out = tmp_path / "output"
    result = run(["build", str(root / "designs" / "three-stars"), "several", "--out", str(out)], tmp_path)
    assert result.exit_code == 2
    assert not out.exists()


def test_unknown_design_name_suggests_one(tmp_path):
    (tmp_path / "designs" / "three-stars").mkdir(parents=True)
    (tmp_path / "designs" / "three-stars" / "design.yaml").write_text("meta: {}\n")
    result = run(["build", "three-star"], tmp_path)
    assert result.exit_code == 2
    assert "did you mean 'three-stars'?" in result.output


def test_yaml_is_loaded_safely(tmp_path):
    d = tmp_path / "evil"
    d.mkdir()
    (d / "design.yaml").write_text("meta: !!python/object/apply:os.system ['touch pwned']\ncomponents: {}\n")
    result = run(["build", "evil"], tmp_path)
    assert result.exit_code == 2
    assert "evil/design.yaml:1:" in result.output
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("text,mm", [("63mm", 63), ("6.3cm", 63), ("2.5in", 63.5), ("72pt", 25.4), ("0", 0),
                                     (" 3 mm ", 3), ("1/8in", 3.175), ("12", None), ("3mmm", None), (12, None)])
def test_lengths(text, mm):
    if mm is None:
        with pytest.raises(UnitError):
            parse_length(text)
    else:
        assert parse_length(text) == pytest.approx(mm)


def test_libyaml_and_the_pure_python_parser_read_every_design_alike():
    """pnp parses with LibYAML when PyYAML has it, and tells a problem as the pure-Python parser does (its
    messages are those of tests/fixtures/bad): both read the same values on the same lines."""
    import yaml

    from pnp import yamlio

    if yamlio._FAST is None:
        pytest.skip("PyYAML without LibYAML: pnp uses the pure-Python parser only")
    root = Path(__file__).resolve().parent.parent
    files = sorted([*root.glob("designs/*/*.yaml"), *root.glob("tests/fixtures/**/*.yaml")])
    assert len(files) > 10
    read = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            slow = yamlio._parse(text, path, yaml.SafeLoader)
        except Exception:
            continue  # a bad case: told by the pure-Python parser whichever parser found it (test above)
        fast = yamlio._parse(text, path, yamlio._FAST)
        assert (fast.data, fast.lines) == (slow.data, slow.lines), path
        read += 1
    assert read > 10
    message = "expected ',' or ']', but got ':'"  # LibYAML says "did not find expected ',' or ']'"
    with pytest.raises(Exception, match=message):
        yamlio.parse_yaml("a: [1, 2\nb: 3\n", Path("x.yaml"))


def test_the_design_model_declares_each_field_once_typed():
    """pnp.model writes each class's schema out (pydantic-core) beside its type hints: the two list the same
    fields, so an attribute read in the code is one the schema checks."""
    import typing

    from pnp import model

    records = [c for c in vars(model).values() if isinstance(c, type) and issubclass(c, model.Record)
               and c is not model.Record]
    assert {c.__name__ for c in records} >= {"Design", "Meta", "PrintSettings", "Component", "FaceSource", "Size"}
    for cls in records:
        hints = {k for k in typing.get_type_hints(cls) if not k.startswith("_")} - {"model_fields"}
        assert hints == set(cls.fields()), cls.__name__
