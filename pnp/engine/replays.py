"""Replays: a game as JSON (the design, the seats, the seed and every action, chance included), as `pnp play`
saves it; read back and played again by the engine, every action checked (`pnp play --replay`, `pnp simulate
--replay`)."""

from __future__ import annotations

import json
from pathlib import Path

from pnp.engine import load_engine
from pnp.engine.api import IllegalActionError, State
from pnp.errors import PnpError

REPLAY_FORMAT = 1
MAX_REPLAY_BYTES = 2_000_000


def load_replay(path: Path) -> dict:
    """A replay file (pnp play's JSON), checked: PnpError `file:line: what; expected` otherwise."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PnpError(f"{path}: cannot read ({exc.strerror}); expected a replay saved by pnp play") from None
    if len(raw) > MAX_REPLAY_BYTES:
        raise PnpError(f"{path}: {len(raw)} bytes; expected a replay of at most {MAX_REPLAY_BYTES} bytes")
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise PnpError(f"{path}:{getattr(exc, 'lineno', 1)}: not JSON ({exc}); expected a replay saved by pnp play") \
            from None
    ok = (isinstance(data, dict) and isinstance(data.get("actions"), list)
          and all(isinstance(a, int) and not isinstance(a, bool) for a in data["actions"])
          and isinstance(data.get("seed"), int) and isinstance(data.get("players"), int))
    if not ok:
        raise PnpError(f"{path}:1: not a replay (seed, players and a list of whole-number actions); expected the "
                       "JSON pnp play saves")
    return data


def replay_state(design, replay: dict, where: str = "replay") -> State:
    """The engine's state after a replay's actions, every action checked by the engine."""
    game = load_engine(design, int(replay["players"]))
    state = game.new_initial_state()
    for n, action in enumerate(replay["actions"], start=1):
        try:
            state.apply_action(int(action))
        except IllegalActionError as exc:
            raise PnpError(f"{where}: action {action} (move {n}): {exc}; expected the actions of a game of "
                           f"{design.slug}") from None
    return state
