"""pnp: print-and-play asset generator and rules compiler for tabletop game designers.

Data flows one way: YAML design -> validated model (pnp.model) -> faces as SVG
(pnp.render) -> print sheets as PDF (pnp.layout). Games plug in under pnp.games.
"""

__version__ = "0.1.0"
