"""Rendering: faces (pnp.render.faces) drawn as SVG (pnp.render.svg)."""
