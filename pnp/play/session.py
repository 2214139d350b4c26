"""One game on the page: seats (a person or an agent each), the seed, the engine's state, undo, the log.

The engine decides everything: the legal actions and their texts, why an action is illegal, chance (drawn
from the engine's chance outcomes with the seeded generator of pnp.engine.playout, so a game replays from its
seed and actions), the result. A view is what one seat may see: the position drawn (or told) for that seat by
the game's PlayView, the legal actions when it is that seat's turn, the log as that seat sees it. A game with
hidden information (its states have `information_key`) never shows a chance action's text, nor another seat's
hand, to a view that may not see it.

A replay is the game as JSON: the design, the seats, the seed and every action (chance included); the engine
layer reads it (pnp.engine.replays: `pnp play --replay`, `pnp simulate --replay`).
"""

from __future__ import annotations

import json
import random
import threading
from dataclasses import dataclass, field
from typing import Any

from pnp.engine import load_engine, player_counts
from pnp.engine.agents import Agent, parse_agent
from pnp.engine.api import CHANCE, TERMINAL, IllegalActionError, State
from pnp.engine.playout import rngs
from pnp.engine.replays import REPLAY_FORMAT, load_replay, replay_state
from pnp.errors import PnpError
from pnp.registry import PlayView, get_game

HUMAN = "human"
MAX_SEED = 2**63


def hidden_information(state: State) -> bool:
    return callable(getattr(state, "information_key", None))


def parse_seats(text: str | list[str] | None, players: int) -> list[str]:
    """One seat each: `human` or an agent (`random`, `greedy`, `mcts:N`); one name for every seat but the first
    (`greedy`: a person against agents), or one per seat (`human,human`: hot-seat)."""
    if text is None:
        return [HUMAN] + ["greedy"] * (players - 1)
    parts = [p.strip().lower() for p in (text.split(",") if isinstance(text, str) else text)]
    if len(parts) == 1 and parts[0] != HUMAN:
        parts = [HUMAN] + parts * (players - 1)
    elif len(parts) == 1:
        parts = parts * players
    if len(parts) != players:
        raise PnpError(f"--seats {','.join(parts)}: {len(parts)} seats for {players} players; expected one for "
                       f"every seat (e.g. human,greedy) or one agent for the seats after yours")
    for part in parts:
        if part != HUMAN:
            parse_agent(part)  # PnpError naming what is expected
    return parts


@dataclass
class Entry:
    """One action of the log: who, the action, and the state it was played in (to tell it to each viewer)."""
    player: int
    action: int
    before: State


@dataclass
class Snapshot:
    state: State
    log: int
    chance: Any
    agents: Any


@dataclass
class Session:
    """A game being played. Every method holds the session's lock: the server's threads (an agent thinking, a
    click) never see a half-applied move."""

    design: Any
    players: int
    seats: list[str]
    seed: int
    lang: str = "en"
    state: State = field(init=False)
    log: list[Entry] = field(default_factory=list)
    undo_stack: list[Snapshot] = field(default_factory=list)
    shown: int | None = None  # hot-seat: the seat whose view the page holds (after its hand-over)
    version: int = 0  # bumped at each change: the page asks for the view when it moves on
    thinking: bool = False
    ended: bool = False  # this game reached its end once: every hand may be shown (the position's export)
    error: str = ""  # an agent that failed (the page says it)

    def __post_init__(self) -> None:
        spec = get_game(self.design.game)
        self.view_hooks: PlayView = (spec.play if spec is not None and spec.play is not None else PlayView())
        self.lock = threading.RLock()
        self.new_game(self.players, self.seats, self.seed)

    def new_game(self, players: int, seats: list[str], seed: int) -> None:
        """Another game: the player count, the seats and the seed may change."""
        counts = player_counts(self.design)
        if players not in counts:
            raise PnpError(f"--players {players}: {self.design.meta.title} plays {counts[0]} to {counts[-1]}; "
                           f"expected one of {', '.join(map(str, counts))}")
        if not 0 <= seed < MAX_SEED:
            raise PnpError(f"--seed {seed}: expected a whole number from 0 to {MAX_SEED - 1}")
        seats = parse_seats(seats, players)
        with self.lock:
            self.players, self.seats = players, seats
            self.game = load_engine(self.design, players)
            self.agents: list[Agent | None] = [None if s == HUMAN else parse_agent(s).make(self.game) for s in seats]
            self.error = ""
            self.restart(seed)

    # --- playing ------------------------------------------------------------------------------------------
    def restart(self, seed: int | None = None) -> None:
        with self.lock:
            self._reset(seed)
            self._chance()
            self._hand_over()

    def _reset(self, seed: int | None) -> None:
        """The game before anything happened: the generators of the seed, the initial state, nothing logged."""
        if seed is not None:
            self.seed = seed
        self.chance_rng, self.agent_rng = rngs(self.seed)
        self.state = self.game.new_initial_state()
        self.log = []
        self.undo_stack = []
        self.ended = False
        self.hidden = hidden_information(self.state)
        self.shown = None
        self.version += 1

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s == HUMAN]

    def to_act(self) -> int:
        return self.state.current_player()

    def agent_to_act(self) -> bool:
        p = self.to_act()
        return p >= 0 and self.agents[p] is not None

    def _record(self, action: int) -> None:
        player = self.state.current_player()
        before = self.state.clone()
        self.state.apply_action(action)
        self.log.append(Entry(player, action, before))
        self.ended = self.ended or self.state.is_terminal()

    def _chance(self) -> None:
        """Play the chance nodes (the engine's outcomes, the seeded generator), up to a player's turn."""
        steps = 0
        limit = self.game.info.max_chance_actions + 1
        while self.state.current_player() == CHANCE:
            self._record(self.state.sample_chance(self.chance_rng))
            steps += 1
            if steps > limit:
                raise RuntimeError(f"{self.game.info.name}: more chance actions in a row than it declares")

    def _hand_over(self) -> None:
        """One person at the table: the page holds that seat's view. Several (hot-seat): the view of the seat
        that played last stays until the next person says they are ready (`ready`)."""
        humans = self.humans()
        if len(humans) == 1:
            self.shown = humans[0]
        elif not humans:
            self.shown = None

    def play(self, action: int) -> str:
        """A person's action: "" when applied, else the engine's reason (nothing changes)."""
        with self.lock:
            p = self.to_act()
            if p == TERMINAL:
                return "the game is over; restart for another"
            if p < 0 or self.agents[p] is not None:
                return "it is not a person's turn"
            if self.shown != p:
                return f"{self.player_name(p)}'s turn: the hand-over comes first"
            legal = self.state.legal_actions()
            snapshot = Snapshot(self.state.clone(), len(self.log), self.chance_rng.getstate(),
                                self.agent_rng.getstate())
            try:
                self._record(action)
            except IllegalActionError as exc:
                return str(exc)
            except (ValueError, IndexError, KeyError) as exc:  # an int the engine cannot even read
                return f"action {action}: not an action of this game ({exc}); expected one of {legal[:10]}..."
            self.undo_stack.append(snapshot)
            self._chance()
            self.version += 1
            return ""

    def set_thinking(self, thinking: bool) -> None:
        with self.lock:
            self.thinking = thinking
            self.version += 1

    def agent_step(self) -> bool:
        """The agent to act plays one move (and chance after it); False when no agent is to act."""
        with self.lock:
            if not self.agent_to_act():
                return False
            agent = self.agents[self.to_act()]
            state = self.state.clone()
            rng = self.agent_rng
        action = agent.step(state, rng)  # type: ignore[union-attr]  # (thinking outside the lock: the page stays live)
        with self.lock:
            self._record(action)
            self._chance()
            self.version += 1
        return True

    def undo(self) -> bool:
        """Back to before the last move of a person (the agents' replies and the chance after it go too)."""
        with self.lock:
            if not self.undo_stack:
                return False
            snap = self.undo_stack.pop()
            self.state = snap.state
            del self.log[snap.log:]
            self.chance_rng.setstate(snap.chance)
            self.agent_rng.setstate(snap.agents)
            self.shown = self.to_act() if self.to_act() >= 0 and self.seats[self.to_act()] == HUMAN else self.shown
            self.version += 1
            return True

    def ready(self, seat: int) -> str:
        """Hot-seat: the person at `seat` has the page; "" or why not."""
        with self.lock:
            p = self.to_act()
            if p < 0 or self.seats[p] != HUMAN or seat != p:
                return "not that seat's turn"
            self.shown = seat
            self.version += 1
            return ""

    # --- what a seat sees -----------------------------------------------------------------------------------
    def player_name(self, player: int) -> str:
        return self.game.player_name(player)

    def handing_over(self) -> int | None:
        """The seat the page must be handed to before it shows anything of its own (hot-seat), or None."""
        p = self.to_act()
        if p >= 0 and self.seats[p] == HUMAN and self.shown != p and len(self.humans()) > 1:
            return p
        return None

    def action_text(self, entry: Entry, viewer: int | None) -> str:
        hook = self.view_hooks.action_text
        if hook is not None:
            return hook(entry.before, entry.action, viewer)
        if entry.player == CHANCE and self.hidden:
            return "chance"
        return entry.before.action_to_string(entry.action, entry.player if entry.player >= 0 else None)

    def view(self) -> dict:
        """What the page may show now: the seat it is shown to (`viewer`), the position drawn or told for that
        seat, the legal actions when that seat is to act, the log as that seat sees it, the result at the end."""
        with self.lock:
            over = self.state.is_terminal()
            handing = None if over else self.handing_over()
            # at the end of a game of several people, and between two of them: what every seat may see
            viewer = None if (over and len(self.humans()) != 1) or handing is not None else self.shown
            p = self.to_act()
            mine = p >= 0 and viewer == p  # (the page is shown to a person's seat only)
            actions = [{"id": a, "text": self.state.action_to_string(a)} for a in self.state.legal_actions()] \
                if mine else []
            out: dict[str, Any] = {
                "version": self.version, "title": self.design.meta.title_in(self.lang), "seed": self.seed,
                "players": self.players, "counts": player_counts(self.design),
                "seats": [{"name": self.player_name(i), "who": s} for i, s in enumerate(self.seats)],
                "viewer": viewer, "to_act": p if p >= 0 else None, "over": over, "handing_over": handing,
                "yours": mine, "actions": actions, "thinking": self.thinking,
                "log": [{"player": e.player, "who": self.player_name(e.player) if e.player >= 0 else "chance",
                         "text": self.action_text(e, viewer)} for e in self.log],
                "can_undo": bool(self.undo_stack), "returns": self.state.returns() if over else None,
                "hidden": self.hidden, "svg": None, "text": None,
                "position": self.view_hooks.position is not None and self.may_export()}
            out["svg"], out["text"] = self.picture(viewer)
            return out

    def picture(self, viewer: int | None) -> tuple[str | None, str | None]:
        hooks = self.view_hooks
        svg = hooks.draw(self.design, self.state, viewer, self.lang) if hooks.draw is not None else None
        if hooks.text is not None:
            text = hooks.text(self.state, viewer, self.lang)
        elif not self.hidden:
            text = str(self.state)
        else:
            text = None  # the state's own text shows every hand: not for a page
        return svg, text

    def may_export(self) -> bool:
        """Whether the position may go out as data: it holds every hand, so only in a game that hides none, once
        the game has ended, or when no person plays."""
        return not self.hidden or self.ended or not any(s == HUMAN for s in self.seats)

    def position(self) -> dict:
        """The position as a rulebook diagram's data: the game's position(...) arguments, and the call that
        draws it in a rules text."""
        with self.lock:
            hook = self.view_hooks.position
            if hook is None:
                raise PnpError(f"{self.design.game}: its play view gives no position data; expected a game with "
                               "PlayView.position")
            if not self.may_export():
                raise PnpError("the position holds every hand, which the table may not see yet; expected the end "
                               "of the game (then undo back to the moment to export: the hands are open by then)")
            args = hook(self.state)
            out: dict[str, Any] = {"game": self.design.game, "position": args}
            name = self.view_hooks.position_diagram
            if name:
                params = ", ".join(f"{k}={jinja_literal(v)}" for k, v in args.items())
                out["diagram"] = f'{{{{ diagram("{self.design.game}.{name}", {params}) }}}}'
            return out

    # --- replays ------------------------------------------------------------------------------------------
    def replay(self) -> dict:
        with self.lock:
            return {"pnp": "a game played with pnp play", "format": REPLAY_FORMAT, "design": self.design.slug,
                    "game": self.design.game, "players": self.players, "seats": self.seats, "seed": self.seed,
                    "actions": self.state.history(), "over": self.state.is_terminal(),
                    "returns": self.state.returns() if self.state.is_terminal() else None}

    def load(self, replay: dict) -> None:
        """Play `replay`'s actions from its seed: the game as it was (undo goes back move by move)."""
        with self.lock:
            self._reset(int(replay["seed"]))
            for action in replay["actions"]:
                if self.state.current_player() >= 0 and self.seats[self.state.current_player()] == HUMAN:
                    self.undo_stack.append(Snapshot(self.state.clone(), len(self.log), self.chance_rng.getstate(),
                                                    self.agent_rng.getstate()))
                try:
                    self._record(int(action))
                except IllegalActionError as exc:
                    raise PnpError(f"replay: action {action} (move {len(self.log) + 1}): {exc}; expected the "
                                   "actions of a game of this design") from None
            self._hand_over()
            self.version += 1


def jinja_literal(value: Any) -> str:
    """`value` (JSON data) as a literal of a rules text's template (Jinja: none, true, false; lists, dicts)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)}: {jinja_literal(v)}"
                               for k, v in value.items()) + "}"
    return "[" + ", ".join(jinja_literal(v) for v in value) + "]"


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 10**6)


__all__ = ["HUMAN", "Session", "load_replay", "parse_seats", "replay_state"]
