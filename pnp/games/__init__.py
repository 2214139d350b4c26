"""Game packages. Each subpackage registers itself with pnp.registry when imported.

Adding a game = one package here (geometry, generators, rules engine) + one design
folder under designs/. Nothing else in pnp names a game.
"""
