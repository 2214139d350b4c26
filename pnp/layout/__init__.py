"""Layout: faces -> sheets (pnp.layout.sheets, pure placement data) -> PDF (pnp.layout.pdf)."""
