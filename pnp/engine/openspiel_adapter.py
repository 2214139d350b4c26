"""Every design's rules engine as an OpenSpiel game, and OpenSpiel's tree search as an agent.

Our engines already have OpenSpiel's shape (pnp.engine.api), so the adapter is thin:

* `spiel_game(game)` wraps a pnp `Game` (a design at a player count) as a `pyspiel.Game`
  whose `GameType` says what the engine is: sequential, terminal rewards, explicit chance
  when the engine has chance actions (deterministic otherwise), general-sum win/lose
  results (identical results for a cooperative game), and imperfect information when
  the engine's states can tell what a player knows (`information_key(player)`) and deal
  a world consistent with it (`resample_from_infostate(player, rng)`). The first game
  of each kind is also registered with OpenSpiel (`pyspiel.register_game`) as
  `pnp_<game>`, so `pyspiel.load_game("pnp_three_stars", {"design": path, "players": 3})`
  loads any design of it.
* `Searcher` picks a move with OpenSpiel's `MCTSBot`: PUCT child selection with priors
  from the engine's own action values (the greedy agent's heuristic, as a softmax), leaves
  judged by the engine (`heuristic_returns()`, or greedy playouts for an engine without a
  judgement). Hidden information or chance: the simulations are split over a few
  determinized worlds, each a redeal of what the player to move has not seen
  (`resample_from_infostate`, so the search never reads a hidden hand) with the future
  draws fixed, and the votes of the worlds are added up. OpenSpiel's information-set MCTS
  (`ISMCTSBot`) remains available (`SearchSettings(worlds=0)`). The states the bot plays on
  (`SearchState`, `WorldState`) keep every position a search reaches once, so the bot's replay
  of the path from the root at each simulation costs look-ups, not engine moves.

OpenSpiel is an optional extra: `require_openspiel` says how to install it.
"""

from __future__ import annotations

import math
import random
import weakref
from dataclasses import dataclass, replace
from typing import Any

from pnp.engine.agents import action_values
from pnp.engine.api import CHANCE, TERMINAL, Game, State
from pnp.errors import PnpError
from pnp.registry import get_game

EXTRA = 'pip install -e ".[ai]"'


class MissingExtra(PnpError):
    """An optional dependency the command needs is not installed (exit 2, with the pip command)."""


def require_openspiel(what: str) -> None:
    """PnpError naming the `[ai]` extra when OpenSpiel is not installed."""
    try:
        import pyspiel  # noqa: F401  # lazy: optional (ai)
        from open_spiel.python.algorithms import mcts  # noqa: F401  # lazy: optional (ai)
    except ImportError:
        raise MissingExtra(f"agent {what} needs OpenSpiel, which is not installed; it is the optional extra "
                           f"[ai]: {EXTRA} (or pip install open_spiel)") from None


require_openspiel("mcts")
import numpy as np  # noqa: E402  (installed with OpenSpiel)
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402


def hidden_information(state: State) -> bool:
    """Whether the engine's states tell what each player knows and can be redealt accordingly."""
    return callable(getattr(state, "information_key", None)) and callable(getattr(state, "resample_from_infostate",
                                                                                    None))


class _Inner:
    """Holds the engine state (and the OpenSpiel game) inside an OpenSpiel state. OpenSpiel's C++ Clone
    makes a fresh state and deep-copies its Python attributes into it: this holder's deep copy is the
    engine's own clone, the game shared, never copied."""

    __slots__ = ("_s", "g")

    def __init__(self, s: State | None, g: "PnpSpielGame"):
        self._s, self.g = s, g

    @property
    def s(self) -> State:
        if self._s is None:  # a fresh initial state, made only when asked for (a clone overwrites it first)
            self._s = self.g.pnp.new_initial_state()
        return self._s

    def __deepcopy__(self, memo: dict) -> "_Inner":
        return _Inner(self.s.clone(), self.g)


class PnpSpielState(pyspiel.State):
    """An engine state seen by OpenSpiel. Python callers get fast paths (no C++ round trip) for the
    calls search makes most; C++ callers go through the same engine calls."""

    def __init__(self, game: "PnpSpielGame", inner: State | None = None):
        super().__init__(game)
        self._i = _Inner(inner, game)

    @property
    def engine_state(self) -> State:
        return self._i.s

    # --- the OpenSpiel Python-game API (called from C++ too) ---------------------------
    def current_player(self) -> int:
        return self._i.s.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._i.s.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._i.s.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._i.s.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._i.s.action_to_string(int(action), player if player >= 0 else None)

    def is_terminal(self) -> bool:
        return self._i.s.is_terminal()

    def returns(self) -> list[float]:
        """The engine's results once the game is over; 0 before (OpenSpiel's terminal reward model)."""
        s = self._i.s
        if not s.is_terminal():
            return [0.0] * self._i.g.pnp.info.num_players
        return [float(r) for r in s.returns()]

    def rewards(self) -> list[float]:
        return self.returns()

    def __str__(self) -> str:
        s = self._i.s
        return str(s) if type(s).__str__ is not object.__str__ else repr(s.key())

    # --- fast paths for Python search (same results as the C++ calls) -------------------
    def legal_actions(self, player: int | None = None) -> list[int]:
        s = self._i.s
        if player is not None and player != s.current_player() and player >= 0:
            return []
        return s.legal_actions()

    def apply_action(self, action: int) -> None:
        self._i.s.apply_action(int(action))

    def is_chance_node(self) -> bool:
        return self._i.s.current_player() == CHANCE

    def clone(self) -> "PnpSpielState":
        return PnpSpielState(self._i.g, self._i.s.clone())

    def history(self) -> list[int]:
        return self._i.s.history()

    def information_state_string(self, player: int | None = None) -> str:
        s = self._i.s
        return self._i.g.info_string(s, s.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> "PnpSpielState":
        rng = random.Random(sampler() if callable(sampler) else None)
        return PnpSpielState(self._i.g, self._i.s.resample_from_infostate(player, rng))  # type: ignore[attr-defined]


class _Observer:
    """OpenSpiel's Python observer shape: strings only (what a player knows), no tensors."""

    def __init__(self, game: "PnpSpielGame"):
        self.game = game
        self.tensor = None
        self.dict: dict = {}

    def set_from(self, state: PnpSpielState, player: int) -> None:
        pass

    def string_from(self, state: PnpSpielState, player: int) -> str:
        return self.game.info_string(state.engine_state, player)


class PnpSpielGame(pyspiel.Game):
    """A pnp Game (a design at a player count) as an OpenSpiel game."""

    def __init__(self, pnp_game: Game, short_name: str, cooperative: bool = False, params: dict | None = None):
        self.pnp = pnp_game
        info = pnp_game.info
        first = pnp_game.new_initial_state()
        self.hidden = hidden_information(first)
        self.has_chance = info.max_chance_actions > 0
        # chance actions are ints of their own; OpenSpiel wants them below max_chance_outcomes
        self.max_chance_outcomes = (info.num_distinct_actions + info.max_chance_actions) if self.has_chance else 0
        self.game_type = pyspiel.GameType(
            short_name=short_name,
            long_name=f"pnp {short_name.removeprefix('pnp_')} (a design's rules engine)",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if self.has_chance
                         else pyspiel.GameType.ChanceMode.DETERMINISTIC),
            information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if self.hidden
                         else pyspiel.GameType.Information.PERFECT_INFORMATION),
            utility=(pyspiel.GameType.Utility.IDENTICAL if cooperative else pyspiel.GameType.Utility.GENERAL_SUM),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=info.num_players,
            min_num_players=info.num_players,
            provides_information_state_string=self.hidden,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=False,
            parameter_specification={"design": "", "players": 0},
        )
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=self.max_chance_outcomes,
            num_players=info.num_players,
            min_utility=float(info.min_utility),
            max_utility=float(info.max_utility),
            utility_sum=None,
            max_game_length=info.max_game_length,
        )
        super().__init__(self.game_type, game_info, params or {})

    def new_initial_state(self) -> PnpSpielState:
        return PnpSpielState(self)

    def wrap(self, state: State) -> PnpSpielState:
        """An engine state as an OpenSpiel state (shared, not copied: search clones before it plays)."""
        return PnpSpielState(self, state)

    def make_py_observer(self, iig_obs_type=None, params=None) -> _Observer:
        return _Observer(self)

    def info_string(self, s: State, player: int) -> str:
        """What `player` knows of `s` (everything, in a game without hidden information)."""
        return repr(s.information_key(player)) if self.hidden else repr(s.key())  # type: ignore[attr-defined]


_GAMES: "weakref.WeakKeyDictionary[Game, PnpSpielGame]" = weakref.WeakKeyDictionary()
_REGISTERED: set[str] = set()


def spiel_game(game: Game, kind: str | None = None, cooperative: bool | None = None) -> PnpSpielGame:
    """The OpenSpiel game of a pnp Game (made once per Game); registers `pnp_<kind>` with OpenSpiel."""
    found = _GAMES.get(game)
    if found is not None:
        return found
    design = getattr(game, "design", None)
    if kind is None:
        kind = getattr(design, "game", None) or game.info.name.split(":")[0]
    if cooperative is None:
        spec = get_game(kind)
        cooperative = bool(spec and spec.cooperative)
    short = f"pnp_{kind}"
    folder = getattr(design, "folder", None)
    made = PnpSpielGame(game, short, cooperative,
                        {"design": str(folder) if folder else "", "players": game.info.num_players})
    _GAMES[game] = made
    if short not in _REGISTERED:
        _REGISTERED.add(short)
        pyspiel.register_game(made.game_type, LoadedGame)
    return made


class LoadedGame(PnpSpielGame):
    """pyspiel.load_game("pnp_<game>", {"design": folder, "players": n}): that design's engine."""

    def __init__(self, params: dict):
        from pnp.engine import load_engine  # lazy: optional (ai)
        from pnp.loader import load_design, resolve_design  # lazy: optional (ai)

        design = load_design(resolve_design(str(params["design"])))
        players = int(params["players"]) or design.meta.players.min
        game = load_engine(design, players)
        spec = get_game(design.game)
        super().__init__(game, f"pnp_{design.game}", bool(spec and spec.cooperative), dict(params))


# --- search ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchSettings:
    """How `Searcher` uses OpenSpiel's bots (every choice measured in bench/mcts_tuning.py)."""

    c: float = 0.7
    """Exploration constant of the child selection, for results spanning 1 (scaled to the game's result range).
    0.7 against 2 at mcts:200 vs greedy: 3 Stars 67.5 % against 55 % (40 games), lozenge 71 % against 62.5 % (24);
    0.3 no better (57.5 %); TriLOOPite's team result 10.8 against 0.0 (8 games)."""
    selection: str = "puct"
    """`puct`: OpenSpiel's `SearchNode.puct_value` (priors steer which moves are tried); `uct`: `uct_value`
    (every move once before any twice)."""
    prior: str = "greedy"
    """`greedy`: a softmax of the engine's action values (`action_values`/`action_value`, standardised per
    position); `uniform`: every legal move alike."""
    temperature: float = 0.5
    """Of the greedy prior, in standard deviations of the position's action values: smaller is sharper."""
    top_k: int = 0
    """With the greedy prior: only the `top_k` actions of highest value become children of a node (0: every
    legal action). Fewer children cost less to create and to choose among at every visit."""
    leaf: str = "judge"
    """Leaf evaluation: `judge` (the engine's `heuristic_returns()` at once), `greedy:K` (K greedy moves, then
    the judgement), `random` (random moves to the end of the game, OpenSpiel's rollout). An engine without a
    judgement is played out to the end (`greedy:K` then greedy to the end)."""
    worlds: int = 4
    """Hidden information or chance: the simulations are split over this many worlds, each a deal of what the
    player to move has not seen and a fixed order of future draws, each searched by MCTSBot; the move with
    the most visits over all worlds is played. 0: OpenSpiel's information-set MCTS instead."""


DEFAULT_SETTINGS = SearchSettings()


class _Fixed:
    """A stand-in for `random.Random` whose `random()` is a given number (a world's fixed draw)."""

    __slots__ = ("u",)

    def __init__(self, u: float):
        self.u = u

    def random(self) -> float:
        return self.u


class _Tree:
    """The positions one search has reached, each kept once: node n's engine state `states[n]` (never played on
    again), the world's draws it has used `draws[n]`, and `child[(n, action)]` the node an action leads to."""

    __slots__ = ("states", "draws", "child", "player")

    def __init__(self, root: State, draws: int = 0):
        self.states = [root]
        self.draws = [draws]
        self.child: dict[tuple[int, int], int] = {}
        self.player = [root.current_player()]
        """node n's player to act (TERMINAL once over), asked at every step of every simulation"""

    def __deepcopy__(self, memo: dict) -> "_Tree":
        return self  # shared by every state of the search (only ever added to)


class SearchState(PnpSpielState):
    """The state search plays on. Its actions come from the state's own legal actions (the tree's children), so
    they are applied without a second legality check (`apply_legal_action`). OpenSpiel's MCTS plays each
    simulation on a clone of the root, replaying the path down the tree: here every position reached is kept
    in the search's `_Tree`, a clone shares it, and an action already played from a position is a look-up of
    the position it led to; only a position never reached before costs an engine clone and apply. The
    positions are those a replay makes (the engine is deterministic and chance, in a world, is fixed)."""

    def __init__(self, game: "PnpSpielGame", inner: State, tree: _Tree | None = None, node: int = 0):
        super().__init__(game, inner)
        self._tree = tree if tree is not None else _Tree(inner)
        self._node = node

    def _play(self, s: State, action: int, draws: int) -> int:
        """Play `action` on `s` (a new copy of a kept position); the world's draws used after it."""
        s.apply_legal_action(action)
        return draws

    def apply_action(self, action: int) -> None:
        tree, node = self._tree, self._node
        action = int(action)
        n = tree.child.get((node, action))
        if n is None:
            s = tree.states[node].clone()
            used = self._play(s, action, tree.draws[node])
            n = tree.child[(node, action)] = len(tree.states)
            tree.states.append(s)
            tree.draws.append(used)
            tree.player.append(s.current_player())
        self._node = n
        self._i._s = tree.states[n]

    _apply_action = apply_action

    def current_player(self) -> int:
        return self._tree.player[self._node]

    def is_terminal(self) -> bool:
        return self._tree.player[self._node] == TERMINAL

    def is_chance_node(self) -> bool:
        return self._tree.player[self._node] == CHANCE

    def clone(self) -> "SearchState":
        return SearchState(self._i.g, self._i.s, self._tree, self._node)


class WorldState(SearchState):
    """One determinized world: an engine state whose chance events resolve themselves from the world's own
    list of draws (the k-th draw since the search began uses the k-th number), so the search tree holds
    decisions only and every path through it is one consistent story."""

    def __init__(self, game: "PnpSpielGame", inner: State, draws: list[float], k: int = 0,
                 tree: _Tree | None = None, node: int = 0):
        self._draws = draws
        if tree is None:
            while inner.current_player() == CHANCE:
                k = self._draw(inner, k)
            tree = _Tree(inner, k)
        super().__init__(game, inner, tree, node)

    def _draw(self, s: State, k: int) -> int:
        draws = self._draws
        s.apply_legal_action(s.sample_chance(_Fixed(draws[k % len(draws)])))  # type: ignore[arg-type]
        return k + 1

    def _play(self, s: State, action: int, draws: int) -> int:
        s.apply_legal_action(action)
        while s.current_player() == CHANCE:
            draws = self._draw(s, draws)
        return draws

    def is_chance_node(self) -> bool:
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def clone(self) -> "WorldState":
        return WorldState(self._i.g, self._i.s, self._draws, 0, self._tree, self._node)


def judges_positions(state: State) -> bool:
    """Whether the engine can judge an unfinished position (`heuristic_returns()`)."""
    return callable(getattr(state, "heuristic_returns", None))


def _leaf_moves(leaf: str) -> int:
    if leaf in ("judge", "random"):
        return 0
    if leaf.startswith("greedy:") and leaf[7:].isdigit():
        return int(leaf[7:])
    raise ValueError(f"leaf evaluation {leaf!r}; expected judge, random or greedy:K")


class GuidedEvaluator(mcts.Evaluator):
    """OpenSpiel's `Evaluator` from the engine: move priors from its greedy action values, leaf values from its
    own judgement of a position (or a short greedy playout first; engines without a judgement are played
    out). Every random choice comes from the playout's seeded generator."""

    def __init__(self, rng: random.Random, settings: SearchSettings, judge: bool):
        self.rng = rng
        self.settings = settings
        self.judge = judge
        self.moves = _leaf_moves(settings.leaf)
        self.random_leaf = settings.leaf == "random"
        self.uniform = settings.prior == "uniform"
        self.temperature = settings.temperature
        self.top_k = settings.top_k

    def evaluate(self, state: PnpSpielState) -> list[float]:
        s = state.engine_state
        if self.random_leaf:
            return self._play_out(s.clone(), greedy=False)
        if self.moves or not self.judge:
            s = s.clone()
            rng = self.rng
            for _ in range(self.moves):
                if s.is_terminal():
                    break
                self._step(s, rng, greedy=True)
            if not self.judge:
                return self._play_out(s, greedy=True)
        return s.returns() if s.is_terminal() else s.heuristic_returns()  # type: ignore[attr-defined]

    def _step(self, s: State, rng: random.Random, greedy: bool) -> None:
        if s.current_player() == CHANCE:
            s.apply_legal_action(s.sample_chance(rng))
            return
        actions = s.legal_actions()
        if greedy and len(actions) > 1:
            values = action_values(s, actions)
            top = max(values)
            actions = [a for a, v in zip(actions, values) if v == top]
        s.apply_legal_action(actions[int(rng.random() * len(actions))])

    def _play_out(self, s: State, greedy: bool) -> list[float]:
        rng = self.rng
        while not s.is_terminal():
            self._step(s, rng, greedy)
        return s.returns()

    def prior(self, state: PnpSpielState) -> list[tuple[int, float]]:
        s = state.engine_state
        if s.current_player() == CHANCE:
            return s.chance_outcomes()
        actions = s.legal_actions()
        n = len(actions)
        if self.uniform or n == 1:
            return [(a, 1.0 / n) for a in actions]
        values = action_values(s, actions)
        top = max(values)
        if 0 < self.top_k < n:  # the best k (the earlier action of equal values first), in their order
            keep = sorted(sorted(range(n), key=values.__getitem__, reverse=True)[:self.top_k])
            actions = [actions[i] for i in keep]
            values = [values[i] for i in keep]
            n = len(actions)
        mean = sum(values) / n
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
        if spread == 0.0:
            return [(a, 1.0 / n) for a in actions]
        k = 1.0 / (self.temperature * spread)
        weights = [math.exp((v - top) * k) for v in values]
        total = sum(weights)
        return [(a, w / total) for a, w in zip(actions, weights)]


class Searcher:
    """Chooses moves with OpenSpiel's MCTS bots for one pnp Game; every draw from the playout's generator.

    Perfect information without chance: one `mcts.MCTSBot` search (PUCT with greedy priors, leaves judged by
    the engine, MCTS-Solver backups) on the very position. Hidden information or chance: the simulations are
    split over `worlds` determinized worlds — what the player to move has not seen dealt again by the engine
    (`resample_from_infostate`, so the search never reads a hidden hand) and future draws fixed — each searched
    by `MCTSBot`; the move with the most visits over all worlds is played (a move proven to win in a world
    counts all of that world's simulations). `settings.worlds = 0` uses OpenSpiel's information-set MCTS
    (`ismcts.ISMCTSBot`) instead. The exploration constant is scaled to the game's result range (for a
    cooperative score, the loss side is counted at most as large as the win side).
    """

    def __init__(self, game: Game, simulations: int, settings: SearchSettings = DEFAULT_SETTINGS):
        if settings is DEFAULT_SETTINGS:  # a game may tune the defaults to itself (`Game.search_settings`)
            settings = replace(settings, **getattr(game, "search_settings", {}))
        self.game = spiel_game(game)
        self.simulations = simulations
        self.settings = settings
        self.judge = judges_positions(game.new_initial_state())
        lo, hi = float(game.info.min_utility), float(game.info.max_utility)
        if self.game.get_type().utility == pyspiel.GameType.Utility.IDENTICAL and hi > 0:
            lo = max(lo, -hi)
        self.c = settings.c * ((hi - lo) or 1.0)
        self.max_utility = float(game.info.max_utility)
        self.select = mcts.SearchNode.puct_value if settings.selection == "puct" else mcts.SearchNode.uct_value
        self.worlds = settings.worlds if (self.game.hidden or self.game.has_chance) else 0

    def choose(self, state: State, rng: random.Random) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        np_rng = np.random.RandomState(rng.getrandbits(32))
        evaluator = GuidedEvaluator(random.Random(rng.getrandbits(64)), self.settings, self.judge)
        if self.game.hidden and not self.worlds:
            return self._ismcts(state, rng, np_rng, evaluator)
        if not self.worlds:
            bot = mcts.MCTSBot(self.game, self.c, self.simulations, evaluator, solve=True, random_state=np_rng,
                               child_selection_fn=self.select)
            return int(bot.mcts_search(SearchState(self.game, state)).best_child().action)
        player = state.current_player()
        worlds = min(self.worlds, self.simulations)
        votes = {a: [0.0, 0.0] for a in actions}
        for w in range(worlds):
            sims = self.simulations // worlds + (1 if w < self.simulations % worlds else 0)
            dealt = state.resample_from_infostate(player, rng) if self.game.hidden else state.clone()  # type: ignore[attr-defined]
            draws = [rng.random() for _ in range(64)]
            bot = mcts.MCTSBot(self.game, self.c, sims, evaluator, solve=True, random_state=np_rng,
                               child_selection_fn=self.select)
            root = bot.mcts_search(WorldState(self.game, dealt, draws))
            for child in root.children:
                vote = votes[child.action]
                won = child.outcome is not None and child.outcome[player] >= self.max_utility
                vote[0] += sims if won else child.explore_count
                vote[1] += child.total_reward
        return max(actions, key=lambda a: (votes[a][0], votes[a][1]))

    def _ismcts(self, state: State, rng: random.Random, np_rng, evaluator: GuidedEvaluator) -> int:
        worlds = random.Random(rng.getrandbits(64))
        policy = (ismcts.ChildSelectionPolicy.PUCT if self.settings.selection == "puct"
                  else ismcts.ChildSelectionPolicy.UCT)
        bot = ismcts.ISMCTSBot(self.game, evaluator, self.c, self.simulations, random_state=np_rng,
                               allow_inconsistent_action_sets=False, child_selection_policy=policy)
        bot.set_resampler(lambda st, player: PnpSpielState(
            self.game, st.engine_state.resample_from_infostate(player, worlds)))
        return int(bot.step(self.game.wrap(state)))
