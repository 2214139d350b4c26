"""`pnp studio`: the designer's screen. A local web server (127.0.0.1) that watches designs, rebuilds them on every
save as `pnp watch` does, and pushes each result to every open page (Server-Sent Events).

- pnp.studio.state: what the page shows, read from a build's output (manifest.json, the faces' SVG files with the
  template, data row and warnings each one carries) and from the build's errors; no server library needed.
- pnp.studio.server: the Starlette application (GET only, Host header checked, files confined to the output and
  the studio's own assets) and the build thread; needs the `studio` extra (starlette, uvicorn).
- pnp/studio/assets/: the page (HTML, CSS, one script); it holds no data of its own and asks /api/state.
"""
