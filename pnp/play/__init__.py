"""`pnp play DESIGN`: the design's game on a local page, its rules engine deciding everything.

`session` holds one game (seats, seed, the engine's state, undo, the log, replays) and says what each seat
may see; `server` serves the page on 127.0.0.1 (the studio's safety rules) and runs the agents off the event
loop; `run` is the command. A game shows its positions through its `GameSpec.play` (pnp.registry.PlayView);
without one it plays through its text view and the list of the engine's actions.
"""
