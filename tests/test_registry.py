"""The registry: one frozen GameSpec per game, found in pnp/games/ and through the pnp.games entry
points alike; the game's rules: section checked against its model when a design loads."""

from __future__ import annotations

import importlib.metadata
import types

import pytest
import yaml
from pydantic import Field, StrictInt

from pnp import registry
from pnp.errors import DesignError, PnpError
from pnp.loader import load_design
from pnp.model import RulesSection
from pnp.registry import GameSpec, generator
from tests.conftest import DESIGNS


@pytest.fixture
def clean_registry(monkeypatch):
    """A registry that forgets what a test registers."""
    registry.discover()
    monkeypatch.setattr(registry, "GAMES", dict(registry.GAMES))
    monkeypatch.setattr(registry, "GENERATORS", dict(registry.GENERATORS))
    monkeypatch.setattr(registry, "DIAGRAMS", dict(registry.DIAGRAMS))
    monkeypatch.setattr(registry, "WORDLESS", set(registry.WORDLESS))


@generator("toy.dots")
def dots(ctx):
    """Dots."""
    return []


def test_a_spec_is_frozen_and_checks_its_names():
    spec = GameSpec(name="toy", title="Toy", generators=[dots], diagrams={"d": lambda design, lang: ""})
    assert spec.generators == (dots,) and spec.diagram_names() == ["toy.d"]
    with pytest.raises(TypeError):
        spec.diagrams["e"] = print  # a read-only mapping
    with pytest.raises(AttributeError):
        spec.title = "Other"  # frozen
    with pytest.raises(ValueError, match="outside the game's namespace"):
        GameSpec(name="other", title="Other", generators=[dots])
    with pytest.raises(ValueError, match="expected lower-case letters"):
        GameSpec(name="My Game", title="x")
    with pytest.raises(TypeError, match="pydantic model"):
        GameSpec(name="toy", title="Toy", rules=dict)


def test_a_spec_names_its_default_agent_and_says_whether_it_is_cooperative():
    """The commands read these two from the spec itself (`registry.get_game`), so the spec refuses what they
    could not use."""
    spec = GameSpec(name="toy", title="Toy")
    assert (spec.default_agent, spec.cooperative) == ("random", False)
    for agent in (None, ""):
        with pytest.raises(TypeError, match="toy: default_agent is .*; expected an agent such as 'random'"):
            GameSpec(name="toy", title="Toy", default_agent=agent)
    with pytest.raises(TypeError, match="toy: cooperative is 1; expected True or False"):
        GameSpec(name="toy", title="Toy", cooperative=1)


def test_get_game_is_none_for_no_game_or_an_unknown_one():
    assert registry.get_game(None) is None and registry.get_game("") is None
    assert registry.get_game("no_such_game") is None
    assert registry.get_game("ishi_hama").default_agent == "greedy"
    assert registry.get_game("triloopite").cooperative is True


def test_register_game_is_one_call_and_refuses_a_second_spec_of_a_name(clean_registry):
    spec = GameSpec(name="toy", title="Toy", generators=[dots], diagrams={"d": lambda design, lang: "<svg/>"})
    assert registry.register_game(spec) is spec and registry.register_game(spec) is spec
    assert registry.get_game("toy") is spec and registry.get_generator("toy.dots") is dots
    assert registry.get_diagram("toy.d")(None, "en") == "<svg/>"
    with pytest.raises(ValueError, match="registered twice"):
        registry.register_game(GameSpec(name="toy", title="Toy again"))


def test_a_game_names_its_wordless_diagrams_among_its_diagrams(clean_registry):
    def draw(design, lang):
        return "<svg/>"

    spec = GameSpec(name="toy", title="Toy", diagrams={"d": draw, "e": draw}, wordless_diagrams=["d"])
    assert spec.wordless_diagrams == frozenset({"d"})
    registry.register_game(spec)
    assert not registry.diagram_has_words("toy.d") and registry.diagram_has_words("toy.e")
    with pytest.raises(ValueError, match="wordless_diagrams names x, which are not among its diagrams"):
        GameSpec(name="toy", title="Toy", diagrams={"d": draw}, wordless_diagrams={"x"})
    with pytest.raises(TypeError, match="expected a collection of diagram names"):
        GameSpec(name="toy", title="Toy", diagrams={"d": draw}, wordless_diagrams="d")


def test_the_shipped_games_are_specs_like_any_other():
    registry.discover()
    import pnp.games.three_stars as ts

    assert registry.get_game("three_stars") is ts.GAME and isinstance(ts.GAME, GameSpec)
    assert registry.get_game("ishi_hama").default_agent == "greedy" and registry.get_game("triloopite").cooperative
    assert "loops" in registry.get_game("triloopite").commands


def test_games_come_from_entry_points_and_a_broken_one_is_named(clean_registry, monkeypatch):
    toy = types.ModuleType("toy_game")
    toy.GAME = GameSpec(name="toy", title="Toy")
    good = importlib.metadata.EntryPoint("toy", "toy_game:GAME", "pnp.games")
    monkeypatch.setattr(importlib.metadata.EntryPoint, "load", lambda ep: toy.GAME if ep.name == "toy" else 1 / 0)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [good] if group == "pnp.games" else [])
    monkeypatch.setattr(registry, "_discovered", False)
    registry.discover()
    assert registry.GAMES["toy"] is toy.GAME
    broken = importlib.metadata.EntryPoint("broken", "broken_game:GAME", "pnp.games")
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [broken])
    monkeypatch.setattr(registry, "_discovered", False)
    with pytest.raises(PnpError, match="entry point 'broken = broken_game:GAME'.*cannot be loaded.*ZeroDivisionError"):
        registry.discover()
    with pytest.raises(PnpError, match="expected a pnp.registry.GameSpec"):
        registry.spec_of(types.ModuleType("no_game_here"), "somewhere")


def copy_with_rules(tmp_path, rules: dict):
    folder = tmp_path / "three-stars"
    import shutil

    shutil.copytree(DESIGNS / "three-stars", folder)
    path = folder / "design.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["rules"] = rules
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return folder, path.read_text(encoding="utf-8").splitlines()


def test_the_rules_section_is_checked_at_load_time_with_file_and_line(tmp_path):
    folder, lines = copy_with_rules(tmp_path, {"hand_sise": 3, "stars_to_win": "3", "pieces_per_player": 0,
                                               "star_positions": {2: 12}})
    with pytest.raises(DesignError) as err:
        load_design(folder)
    text = str(err.value)
    line = {key: i + 1 for i, ln in enumerate(lines) for key in ("rules:", "hand_sise", "stars_to_win",
                                                                  "pieces_per_player") if ln.strip().startswith(key)}
    assert f"design.yaml:{line['rules:']}: rules.hand_size: missing; expected the number of cards in a hand" in text
    assert f"design.yaml:{line['hand_sise']}: rules: unknown key 'hand_sise'; did you mean 'hand_size'?" in text
    assert f"design.yaml:{line['stars_to_win']}: rules.stars_to_win: '3' is not a whole number" in text
    assert f"design.yaml:{line['pieces_per_player']}: rules.pieces_per_player: 0 is too small; expected 1" in text
    good, _ = copy_with_rules(tmp_path / "ok", {"hand_size": 4, "stars_to_win": 2, "pieces_per_player": 30})
    design = load_design(good)
    assert design.game_rules.hand_size == 4 and design.game_rules.card_positions == (1, 3)
    assert design.rules == {"hand_size": 4, "stars_to_win": 2, "pieces_per_player": 30}  # the raw mapping stays


def test_a_game_without_a_rules_model_leaves_rules_free(clean_registry, tmp_path):
    class Pile(RulesSection):
        pile: StrictInt = Field(ge=1, description="the counters of the pile")

    registry.register_game(GameSpec(name="free", title="Free"))
    registry.register_game(GameSpec(name="strict", title="Strict", rules=Pile))
    folder = tmp_path / "d"
    (folder).mkdir()
    base = {"meta": {"title": "T", "players": 2}, "rules": {"anything": [1, 2]},
            "components": {"c": {"kind": "card", "size": "poker", "svg": "c.svg"}}}
    (folder / "c.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")
    (folder / "design.yaml").write_text(yaml.safe_dump({"game": "free", **base}), encoding="utf-8")
    assert load_design(folder).game_rules is None
    (folder / "design.yaml").write_text(yaml.safe_dump({"game": "strict", **base}), encoding="utf-8")
    with pytest.raises(DesignError, match="rules.pile: missing; expected the counters of the pile"):
        load_design(folder)
