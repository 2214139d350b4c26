"""The State base (terminal guard, refusals, history, default clone) and the action codec, on a toy game."""

from __future__ import annotations

import random

import pytest

from pnp.engine import CHANCE, TERMINAL, Game, GameInfo, IllegalActionError, State
from pnp.engine.codec import ActionCodec


class Pile(Game):
    """A toy game: a die roll sets a pile of 1-3 counters; players take 1 or 2 in turn; taking the last wins."""

    def __init__(self):
        self.codec = ActionCodec("pile", take=(2,), roll=(3,))
        self.info = GameInfo("pile", 2, 0.0, 1.0, 3, 1, self.codec.size)

    def new_initial_state(self) -> "PileState":
        return PileState(self)


class PileState(State):
    __slots__ = ("game", "pile", "player", "log", "notes")

    def __init__(self, game: Pile):
        super().__init__()
        self.game, self.pile, self.player = game, None, 0
        self.log = [[], []]  # nested: what each player took
        self.notes = {"takes": []}

    def current_player(self) -> int:
        if self.pile is None:
            return CHANCE
        return TERMINAL if self.pile == 0 else self.player

    def _legal_actions(self) -> list[int]:
        return [self.game.codec.encode("take", n - 1) for n in (1, 2) if n <= self.pile]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, 1 / 3) for a in self.game.codec.row("roll")]

    def _why_illegal(self, action: int) -> str:
        kind, (v,) = self.game.codec.decode(action)
        if (kind == "roll") != (self.pile is None):
            return "not now"
        return f"only {self.pile} left" if kind == "take" and v + 1 > self.pile else ""

    def _apply(self, action: int) -> None:
        kind, (v,) = self.game.codec.decode(action)
        if kind == "roll":
            self.pile = v + 1
            return
        self.pile -= v + 1
        self.log[self.player].append(v + 1)
        self.notes["takes"].append(v + 1)
        if self.pile:
            self.player = 1 - self.player

    def action_to_string(self, action: int, player: int | None = None) -> str:
        kind, (v,) = self.game.codec.decode(action)
        return f"roll {v + 1}" if kind == "roll" else f"take {v + 1}"

    def returns(self) -> list[float]:
        return [1.0 if p == self.player else 0.0 for p in range(2)] if self.pile == 0 else [0.0, 0.0]

    def key(self):
        return self.pile, self.player, tuple(map(tuple, self.log))


def test_the_base_guards_the_end_refuses_with_the_engines_reason_and_keeps_the_history():
    st = Pile().new_initial_state()
    assert st.is_chance_node() and st.legal_actions() == [2, 3, 4] and st.chance_outcomes()[0] == (2, 1 / 3)
    with pytest.raises(IllegalActionError, match="^take 1: not now$"):
        st.apply_action(0)
    st.apply_action(3)  # a pile of 2
    assert st.chance_outcomes() == [] and st.legal_actions() == [0, 1]
    st.apply_action(0)
    with pytest.raises(IllegalActionError, match="^take 2: only 1 left$"):
        st.apply_action(1)
    st.apply_action(0)
    assert st.current_player() == TERMINAL and st.legal_actions() == [] and st.returns() == [0.0, 1.0]
    with pytest.raises(IllegalActionError, match="^take 1: the game is over; expected no more actions$"):
        st.apply_action(0)
    assert st.history() == [3, 0, 0]
    with pytest.raises(IllegalActionError, match="action 9 is not an action of pile"):
        Pile().new_initial_state().apply_action(9)


def test_the_default_clone_copies_nested_lists_and_dicts_and_shares_the_game():
    st = Pile().new_initial_state()
    st.apply_action(4)
    twin = st.clone()
    assert twin == st and twin is not st and twin.game is st.game
    twin.apply_action(1)
    assert st.pile == 3 and st.log == [[], []] and st.notes == {"takes": []} and st.history() == [4]
    assert twin.log == [[2], []] and twin.notes == {"takes": [2]} and twin.history() == [4, 1]


def test_the_codec_is_the_mixed_radix_layout():
    C, S = 5, 7
    codec = ActionCodec("g", place=(C, S), steal=(C, S), exchange=(C,), draw=(C,), stop=())
    assert codec.size == 2 * C * S + 2 * C + 1 and codec.width == 2
    assert codec.encode("place", 3, 4) == 3 * S + 4
    assert codec.encode("steal", 3, 4) == C * S + 3 * S + 4
    assert codec.encode("draw", 2) == 2 * C * S + C + 2 and codec.encode("stop") == codec.size - 1
    assert list(codec.row("steal", 3)) == [C * S + 3 * S + s for s in range(S)]
    assert list(codec.row("place"))[:2] == [0, S]  # the first field varies, by strides of S
    for action in range(codec.size):
        kind, values = codec.decode(action)
        assert codec.encode(kind, *values) == action
        assert codec.unpack(action) == (kind, *values, *[-1] * (2 - len(values)))
    with pytest.raises(ValueError, match="out of range"):
        codec.encode("place", C, 0)
    for bad in (-1, codec.size, "3"):
        with pytest.raises(IllegalActionError, match="is not an action of g"):
            codec.decode(bad)


def test_a_random_toy_game_keeps_the_shared_invariants():
    game = Pile()
    for seed in range(20):
        rng = random.Random(seed)
        st = game.new_initial_state()
        while not st.is_terminal():
            action = st.sample_chance(rng) if st.is_chance_node() else rng.choice(st.legal_actions())
            st.apply_action(action)
        assert sum(st.returns()) == 1.0 and len(st.history()) <= 4


def test_the_shared_invariants_catch_a_clone_that_shares_state():
    from pnp.engine.invariants import check_random_playouts

    class Leaky(PileState):
        __slots__ = ()

        def clone(self):  # forgets to copy: the twin's moves change the original
            return self

    class LeakyPile(Pile):
        def new_initial_state(self):
            return Leaky(self)

    assert check_random_playouts(Pile(), seeds=range(5), clone_every=1) > 0
    with pytest.raises(AssertionError, match="seed 0: a clone differs from its original|changed the original"):
        check_random_playouts(LeakyPile(), seeds=range(1), clone_every=1)
