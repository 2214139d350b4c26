"""Every game's engine through the OpenSpiel adapter: OpenSpiel's own conformance check, the game
types, registration, hidden information kept hidden, and MCTS that plays better than chance.

Needs the optional [ai] extra (open_spiel); skipped cleanly without it."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from pnp.engine import load_engine, player_counts  # noqa: E402
from pnp.engine.agents import MCTSAgent, RandomAgent, make_agents  # noqa: E402
from pnp.engine.openspiel_adapter import PnpSpielState, Searcher, spiel_game  # noqa: E402
from pnp.engine.playout import play, replay  # noqa: E402
from pnp.loader import load_design, package_root  # noqa: E402

DESIGNS = package_root() / "designs"
GAMES = ["three-stars", "three-stars-lozenge", "tubo", "ishi-hama", "triloopite"]


def engine(name: str, players: int | None = None):
    design = load_design(DESIGNS / name)
    return load_engine(design, players or design.meta.players.min)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_conformance(name):
    """OpenSpiel's C++ RandomSimTest (legal actions sorted and unique strings, chance outcomes summing to 1,
    clones equal, returns within the utility range, game length within the maximum, observation strings,
    the legal-action mask...) passes on every player count of every shipped design."""
    design = load_design(DESIGNS / name)
    for n in player_counts(design):
        game = spiel_game(load_engine(design, n))
        pyspiel.random_sim_test(game, num_sims=1 if name == "ishi-hama" else 3, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_conformance_many_games(name):
    design = load_design(DESIGNS / name)
    for n in player_counts(design):
        pyspiel.random_sim_test(spiel_game(load_engine(design, n)), num_sims=30, serialize=False, verbose=False)


def test_game_types_say_what_each_engine_is():
    T = pyspiel.GameType
    stars = spiel_game(engine("three-stars", 3)).get_type()
    assert stars.short_name == "pnp_three_stars"
    assert stars.information == T.Information.IMPERFECT_INFORMATION  # hands are hidden
    assert stars.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC  # cards are drawn
    assert stars.utility == T.Utility.GENERAL_SUM and stars.reward_model == T.RewardModel.TERMINAL
    tubo = spiel_game(engine("tubo")).get_type()
    assert tubo.information == T.Information.PERFECT_INFORMATION
    assert tubo.chance_mode == T.ChanceMode.DETERMINISTIC
    ishi = spiel_game(engine("ishi-hama")).get_type()
    assert ishi.information == T.Information.PERFECT_INFORMATION and ishi.chance_mode == T.ChanceMode.DETERMINISTIC
    loops = spiel_game(engine("triloopite", 2)).get_type()
    assert loops.utility == T.Utility.IDENTICAL  # cooperative: one team score
    assert loops.information == T.Information.IMPERFECT_INFORMATION


def test_registered_games_load_by_name_with_a_design_and_a_player_count():
    spiel_game(engine("tubo"))  # registers pnp_tubo
    game = pyspiel.load_game("pnp_tubo", {"design": str(DESIGNS / "tubo"), "players": 2})
    assert game.num_players() == 2 and game.get_type().short_name == "pnp_tubo"
    state = game.new_initial_state()
    assert state.legal_actions() == engine("tubo").new_initial_state().legal_actions()


def test_clone_through_cpp_and_python_gives_independent_equal_states():
    game = spiel_game(engine("three-stars", 2))
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    twin = state.clone()
    assert str(twin) == str(state) and twin.history() == state.history()
    twin.apply_action(twin.legal_actions()[0])
    assert twin.history() != state.history()


def _position(seed: int = 4, actions: int = 30):
    """A 3 Stars position after some random play, at a player's turn."""
    game = engine("three-stars", 3)
    res = play(game, [RandomAgent()] * 3, seed)
    state = replay(game, res.history[:actions])
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return game, state


def test_resampled_worlds_keep_what_the_player_knows():
    """OpenSpiel's ResampleInfostateTest, through the adapter: a redealt world has the same information
    string for the player and the same player to move; only the hidden hands and the deck differ."""
    game, state = _position()
    p = state.current_player()
    sg = spiel_game(game)
    root = sg.wrap(state)
    seen = set()
    for k in range(20):
        other = root.resample_from_infostate(p, lambda k=k: k)
        assert other.information_state_string(p) == root.information_state_string(p)
        assert other.current_player() == p and other.engine_state.hands[p] == state.hands[p]
        assert sorted(other.engine_state.legal_actions()) == sorted(state.legal_actions())
        seen.add(tuple(map(tuple, other.engine_state.hands)))
    assert len(seen) > 10  # the opponents' hands really are redealt


def test_mcts_never_reads_a_hidden_hand():
    """Two positions that differ only in the opponents' hands look the same to the player to move:
    with the same seed, the search picks the same move in both."""
    game, state = _position()
    p = state.current_player()
    other = state.resample_from_infostate(p, random.Random(99))
    assert other.hands != state.hands and other.information_key(p) == state.information_key(p)
    a = MCTSAgent(40, game).step(state, random.Random(7))
    b = MCTSAgent(40, game).step(other, random.Random(7))
    assert a == b


def test_perfect_information_search_sees_the_same_state():
    """In a perfect-information game the search works on the very state the agent is given."""
    game = engine("tubo")
    state = game.new_initial_state()
    root = spiel_game(game).wrap(state)
    assert isinstance(root, PnpSpielState) and root.engine_state is state


def test_mcts_is_reproducible_from_the_seed():
    game = engine("tubo")
    a = play(game, make_agents("mcts:30,random", game), 5)
    b = play(game, make_agents("mcts:30,random", game), 5)
    assert a.history == b.history


def test_mcts_beats_random_at_tubo():
    """A small fixed-seed match: mcts:40 against random, each seat in turn (the full figures are in the
    closing note: `pnp simulate tubo --agent mcts:200,random`)."""
    game = engine("tubo")
    wins = 0
    for seed in range(12):
        spec = "mcts:40,random" if seed % 2 == 0 else "random,mcts:40"
        res = play(game, make_agents(spec, game), seed)
        if res.winners == [seed % 2]:
            wins += 1
    assert wins >= 9


def test_searcher_uses_openspiel_bots():
    """No search of our own: hidden information is searched by OpenSpiel's MCTSBot in `worlds` determinized
    worlds (each a redeal of what the player cannot see), or by its IS-MCTS with worlds=0; perfect
    information by one MCTSBot search of the very position."""
    import open_spiel.python.algorithms.ismcts as ismcts
    import open_spiel.python.algorithms.mcts as mcts

    from pnp.engine.openspiel_adapter import SearchSettings, WorldState

    assert Searcher(engine("three-stars", 2), 10).game.hidden
    assert not Searcher(engine("tubo"), 10).game.hidden
    used = []
    orig_is, orig_m = ismcts.ISMCTSBot.step, mcts.MCTSBot.mcts_search
    try:
        ismcts.ISMCTSBot.step = lambda self, st: used.append("ismcts") or orig_is(self, st)
        mcts.MCTSBot.mcts_search = lambda self, st: used.append(type(st).__name__) or orig_m(self, st)
        game, state = _position()
        Searcher(game, 12).choose(state, random.Random(1))
        assert used == [WorldState.__name__] * 4
        used.clear()
        Searcher(game, 12, SearchSettings(worlds=0)).choose(state, random.Random(1))
        assert used == ["ismcts"]
        used.clear()
        t = engine("tubo").new_initial_state()
        Searcher(engine("tubo"), 10).choose(t, random.Random(1))
        assert used == ["SearchState"]
    finally:
        ismcts.ISMCTSBot.step, mcts.MCTSBot.mcts_search = orig_is, orig_m


def test_mcts_beats_greedy_at_tubo():
    """The search is stronger than the game's own heuristic, not only than chance: mcts:60 against greedy,
    each seat in turn, fixed seeds (the full ladder: bench/agent_ladder.py, docs/balance.md)."""
    game = engine("tubo")
    wins = 0
    for seed in range(6):
        spec = "mcts:60,greedy" if seed % 2 == 0 else "greedy,mcts:60"
        res = play(game, make_agents(spec, game), seed)
        if res.winners == [seed % 2]:
            wins += 1
    assert wins >= 5
