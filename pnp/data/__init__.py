"""Data files shipped with pnp (facts about the outside world), each with the model that validates it."""
