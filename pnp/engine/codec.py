"""Actions as ints, laid out once: one block per kind of action, each a mixed-radix number.

An engine states its kinds of action and the range of each of their fields, in order:

    codec = ActionCodec("three_stars:three-stars", place=(C, S), steal=(C, S), exchange=(C,), draw=(C,))

`place` actions are then 0 .. C*S-1 (card c on star s is c*S + s: the first field is the most
significant digit), `steal` the next C*S, `exchange` the next C, `draw` the last C;
`codec.size` is the number of distinct actions. A kind with no field, `stop=()`, is one
action. `encode` and `decode` go between the two forms (`unpack` is `decode` flattened to
`(kind, v1, v2...)`, -1 for the fields a kind lacks), `row` gives the actions of a prefix
as a `range` (fast to index in a loop over the last field), and an int that is no action
of the game is refused with IllegalActionError naming the game. Decoding is memoized:
engines decode the same few actions over and over.
"""

from __future__ import annotations

import bisect

from pnp.engine.api import IllegalActionError


class ActionCodec:
    """The action layout of one game (see the module docstring)."""

    __slots__ = ("name", "kinds", "size", "width", "_starts", "_radices", "_sizes", "_index", "_decoded", "_unpacked")

    MEMO = 1 << 16
    """Most decoded actions kept (the memo starts again when full)."""

    def __init__(self, name: str, **kinds: tuple[int, ...]):
        """`name` appears in refusals ("action 7 is not an action of NAME"); `kinds`: kind -> field ranges."""
        if not kinds:
            raise ValueError("an action codec needs at least one kind of action")
        self.name = name
        self.kinds = tuple(kinds)
        starts, radices, sizes = [], [], []
        start = 0
        for kind, fields in kinds.items():
            fields = tuple(fields)
            if any(not isinstance(n, int) or n < 1 for n in fields):
                raise ValueError(f"kind {kind!r}: field ranges {fields}; expected whole numbers of at least 1")
            size = 1
            for n in fields:
                size *= n
            starts.append(start)
            radices.append(fields)
            sizes.append(size)
            start += size
        self.size = start
        self._starts = tuple(starts)
        self._radices = tuple(radices)
        self._sizes = tuple(sizes)
        self._index = {kind: i for i, kind in enumerate(self.kinds)}
        self.width = max(len(r) for r in self._radices)
        """The most fields a kind has: `unpack` gives that many values."""
        self._decoded: dict[int, tuple[str, tuple[int, ...]]] = {}
        self._unpacked: dict[int, tuple] = {}

    def start(self, kind: str) -> int:
        """The first action of a kind."""
        return self._starts[self._index[kind]]

    def count(self, kind: str) -> int:
        """How many actions of a kind there are."""
        return self._sizes[self._index[kind]]

    def encode(self, kind: str, *values: int) -> int:
        """The action of `kind` with these field values; ValueError when one is out of its range."""
        i = self._index[kind]
        radices = self._radices[i]
        if len(values) != len(radices):
            raise ValueError(f"{kind}: {len(values)} value(s) given; expected {len(radices)}")
        number = 0
        for v, n in zip(values, radices):
            if not 0 <= v < n:
                raise ValueError(f"{kind}: value {v} out of range; expected 0 to {n - 1}")
            number = number * n + v
        return self._starts[i] + number

    def row(self, kind: str, *prefix: int) -> range:
        """The actions of `kind` whose leading fields are `prefix`, one per value of the next field."""
        i = self._index[kind]
        radices = self._radices[i]
        if len(prefix) >= len(radices):
            raise ValueError(f"{kind}: a prefix of {len(prefix)} value(s); expected fewer than {len(radices)}")
        first = self.encode(kind, *prefix, *([0] * (len(radices) - len(prefix))))
        stride = 1
        for n in radices[len(prefix) + 1:]:
            stride *= n
        return range(first, first + radices[len(prefix)] * stride, stride)

    def decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        """(kind, field values) of an action; IllegalActionError when it is not an action of the game."""
        found = self._decoded.get(action)
        if found is None:
            found = self._decode(action)
            if len(self._decoded) >= self.MEMO:
                self._decoded.clear()
            self._decoded[action] = found
        return found

    def unpack(self, action: int) -> tuple:
        """(kind, v1, ..., v_width): `decode` flattened, -1 for the fields the kind lacks."""
        found = self._unpacked.get(action)
        if found is None:
            kind, values = self.decode(action)
            found = (kind, *values, *(-1,) * (self.width - len(values)))
            if len(self._unpacked) >= self.MEMO:
                self._unpacked.clear()
            self._unpacked[action] = found
        return found

    def _decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        if not isinstance(action, int) or not 0 <= action < self.size:
            raise IllegalActionError(f"action {action!r} is not an action of {self.name}")
        i = bisect.bisect_right(self._starts, action) - 1
        number = action - self._starts[i]
        radices = self._radices[i]
        if len(radices) == 1:
            return self.kinds[i], (number,)
        values = [0] * len(radices)
        for k in range(len(radices) - 1, -1, -1):
            number, values[k] = divmod(number, radices[k])
        return self.kinds[i], tuple(values)

    def kind(self, action: int) -> str:
        """The kind of an action (IllegalActionError when it is not one)."""
        return self.decode(action)[0]

    def __repr__(self) -> str:
        layout = ", ".join(f"{k}={r}" for k, r in zip(self.kinds, self._radices))
        return f"ActionCodec({self.name!r}, {layout})"
