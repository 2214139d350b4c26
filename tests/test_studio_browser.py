"""pnp studio in a real browser (Debian's Chromium through Playwright, as tests/test_index_browser.py): the page
follows the designer's saves without a reload: a changed row redraws its card, a broken template shows its error
(file:line, the faces it hits) over the last good picture marked stale, and fixing it clears the message. Every image
on the page loads and the page logs no error.

The page forbids eval (its Content Security Policy), which Playwright's wait_for_function uses: `until` polls with
evaluate instead."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from pages import until

from pnp.studio.server import Server, Studio

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAVED_TO_SHOWN = 2.0  # s: from a save to the changed card on the page (the bound)


FACE_TEXT = """key => { const box = document.querySelector(`.face[data-key="${key}"]`);
  return box && box.shadowRoot ? box.shadowRoot.textContent : null; }"""
IMAGES = """async () => {
  const shown = [...document.images].map(i => [i.alt, i.complete && i.naturalWidth > 0]);
  const art = [...document.querySelectorAll('.face')].flatMap(b => b.shadowRoot ?
    [...b.shadowRoot.querySelectorAll('image')].map(i => new URL(i.href.baseVal, document.baseURI).href) : []);
  const decoded = await Promise.all(art.map(u => { const i = new Image(); i.src = u;
    return i.decode().then(() => [u, true], () => [u, false]); }));
  return {shown, decoded};
}"""


@pytest.fixture
def studio_page(browser, tmp_path):
    def open_design(name: str):
        folder = tmp_path / name
        shutil.copytree(FIXTURES / name, folder)
        studio = Studio([folder], tmp_path / "out", echo=lambda s: None)
        server = Server(studio).start()
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url)
        until(page, "() => window.pnpStudio.status === 'ok' && document.querySelectorAll('.face').length > 0 && "
                    "[...document.querySelectorAll('.face')].every(b => b.shadowRoot)")
        opened.append((server, page))
        return folder, studio, page, errors

    opened: list = []
    yield open_design
    for server, page in opened:
        page.close()
        server.close()


def all_loaded(page) -> None:
    """Scroll through the page (sheets load as they near the screen), then every image must have loaded."""
    height = page.evaluate("() => document.body.scrollHeight")
    for y in range(0, height + 900, 600):
        page.evaluate("y => window.scrollTo(0, y)", y)
        time.sleep(0.05)
    until(page, "() => [...document.images].every(i => i.complete)")
    found = page.evaluate(IMAGES)
    assert found["shown"] and all(ok for _, ok in found["shown"]), found["shown"]
    assert all(ok for _, ok in found["decoded"]), found["decoded"]


def test_a_saved_row_a_broken_template_and_its_fix_reach_the_open_page(studio_page):
    folder, _studio, page, errors = studio_page("deck-csv")
    key = "deck-csv/svg/cards-1.svg"
    assert "Fire & Ice" in page.evaluate(FACE_TEXT, key)
    page.evaluate("() => { window.notReloaded = true; }")
    all_loaded(page)

    # a row of the CSV changes: that card, and only it, is drawn again
    others = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('.face')]"
                           ".map(b => [b.dataset.key, b.dataset.v]))")
    saved = time.monotonic()
    (folder / "cards.csv").write_text((folder / "cards.csv").read_text().replace("Fire & Ice", "Lava Flow"))
    until(page, "key => { const b = document.querySelector(`.face[data-key=\"${key}\"]`);"
                "return b && b.shadowRoot && b.shadowRoot.textContent.includes('Lava Flow'); }", arg=key)
    took = time.monotonic() - saved
    assert took < SAVED_TO_SHOWN, f"the changed card showed {took:.2f} s after the save"
    assert page.evaluate("() => window.notReloaded") is True
    now = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('.face')]"
                        ".map(b => [b.dataset.key, b.dataset.v]))")
    assert [k for k in now if now[k] != others[k]] == [key]
    caption = page.locator(".cell", has=page.locator(f'.face[data-key="{key}"]')).inner_text()
    assert "Lava Flow" in caption and "deck-csv/cards.csv:2" in caption

    # a broken template: the message names the file and line and the faces it hits; the picture stays, stale
    template = folder / "templates" / "front.svg.j2"
    good = template.read_text()
    template.write_text(good.replace("{{ title }}", "{{ title "))
    until(page, "() => window.pnpStudio.status === 'failed'")
    message = page.locator("#errors").inner_text()
    assert "deck-csv/templates/front.svg.j2:" in message, message
    assert "cards-1.svg" in message and "cards-4.svg" in message
    assert page.evaluate("() => document.body.classList.contains('stale')")
    assert "Lava Flow" in page.evaluate(FACE_TEXT, key)  # the last good picture
    assert page.locator(".cell.hit").count() == 4
    link = page.locator("#errors a.where").first.get_attribute("href")
    assert link.startswith("/src/deck-csv/templates/front.svg.j2#L")

    # fixed: the message goes, the picture is current again
    template.write_text(good)
    until(page, "() => window.pnpStudio.status === 'ok'")
    assert page.locator("#errors").is_hidden()
    assert not page.evaluate("() => document.body.classList.contains('stale')")
    assert page.evaluate("() => window.notReloaded") is True
    all_loaded(page)
    assert errors == []


def test_faces_show_their_art_and_warnings_and_filters_narrow(studio_page):
    folder, _studio, page, errors = studio_page("art-deck")
    all_loaded(page)
    art = page.evaluate("() => [...document.querySelectorAll('.face')].reduce((n, b) => "
                        "n + b.shadowRoot.querySelectorAll('image').length, 0)")
    assert art > 0
    warned = page.locator(".cell.has-warnings")
    assert warned.count() > 0 and "dpi" in warned.first.inner_text()
    cells = page.locator(".cell:visible").count()
    page.check("#f-warned")
    assert page.locator(".cell:visible").count() == warned.count() < cells
    page.uncheck("#f-warned")
    component = page.locator("#f-component option").nth(1).get_attribute("value")
    page.select_option("#f-component", component)
    visible = page.evaluate("() => [...document.querySelectorAll('.cell')].filter(c => !c.hidden)"
                            ".map(c => c.dataset.component)")
    assert visible and set(visible) == {component}
    # a face's template link opens the template, its line marked
    href = page.locator(".cell a.where").first.get_attribute("href")
    page.goto(page.url.rstrip("/") + href)
    line = href.rsplit("#L", 1)[1] if "#L" in href else None
    shown = page.locator("ol.src li").all_inner_texts()
    assert shown == (folder / "templates" / "front.svg.j2").read_text().splitlines()
    if line:
        assert page.evaluate("() => document.querySelector('li:target') !== null")
    assert errors == []
