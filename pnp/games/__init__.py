"""The games pnp ships. Each subpackage exposes `GAME = pnp.registry.GameSpec(...)`, exactly what
a game in its own package exposes through the `pnp.games` entry point (docs/adding-a-game.md).

Adding a game = one package (geometry, generators, rules engine, checks, rulebook pieces)
+ one design folder. Nothing else in pnp names a game.
"""
