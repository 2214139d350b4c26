from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'index.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_meta = resolve('meta')
    l_0_fonts_css = resolve('fonts_css')
    l_0_total_faces = resolve('total_faces')
    l_0_total_copies = resolve('total_copies')
    l_0_links = resolve('links')
    l_0_report = resolve('report')
    l_0_slug = resolve('slug')
    l_0_printed = resolve('printed')
    l_0_components = resolve('components')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    yield '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>'
    yield escape(environment.getattr((undefined(name='meta') if l_0_meta is missing else l_0_meta), 'title'))
    yield ' — pnp contact sheet</title>\n<style>\n  body { font-family: "DejaVu Sans", system-ui, sans-serif; margin: 2rem; color: #222; background: #fafaf7; }\n  h1 { margin-bottom: .2rem; } .meta { color: #666; margin-top: 0; }\n  nav a { display: inline-block; margin: 0 .8rem .4rem 0; padding: .3rem .7rem; background: #20304a; color: #fff;\n          border-radius: 4px; text-decoration: none; }\n  section { margin: 2rem 0; }\n  .faces { display: flex; flex-wrap: wrap; gap: .8rem; }\n  figure { margin: 0; text-align: center; font-size: .75rem; color: #555; width: min-content; }\n  figcaption { overflow-wrap: anywhere; min-width: 6rem; }\n  /* a face\'s box, its size set per face: the face inherits nothing from the page (fonts, sizes, colours), and\n     its text is set as the PDF sets it, without kerning or ligatures */\n  .face { all: initial; display: block; margin: 0 auto; background: #fff; box-shadow: 0 1px 3px #0003;\n          font-kerning: none; font-variant-ligatures: none; }\n  .face img { display: block; width: 100%; height: 100%; }\n  .count { font-weight: bold; color: #222; }\n  table.report td { padding: .15rem .6rem; vertical-align: top; }\n  .ok { color: #08753b; font-weight: bold; } .fail { color: #b3261e; font-weight: bold; }\n  .details { color: #555; white-space: pre-wrap; font-size: .85em; }\n  #changes ul { margin: .2rem 0 .8rem; } #changes h3 { margin: .6rem 0 0; font-size: 1rem; }\n  figure.changed .face { outline: 3px solid #d55e00; outline-offset: 2px; }\n  .changed-tag { display: block; color: #a33f00; font-weight: bold; }\n</style>\n'
    if (undefined(name='fonts_css') if l_0_fonts_css is missing else l_0_fonts_css):
        pass
        yield "<style>\n/* the design's fonts, which the faces use (CSS in a face's shadow root cannot load a font) */\n"
        yield escape((undefined(name='fonts_css') if l_0_fonts_css is missing else l_0_fonts_css))
        yield '\n</style>\n'
    yield '</head>\n<body>\n<h1>'
    yield escape(environment.getattr((undefined(name='meta') if l_0_meta is missing else l_0_meta), 'title'))
    yield '</h1>\n<p class="meta">'
    yield escape(environment.getattr((undefined(name='meta') if l_0_meta is missing else l_0_meta), 'author'))
    if environment.getattr((undefined(name='meta') if l_0_meta is missing else l_0_meta), 'year'):
        pass
        yield ', '
        yield escape(environment.getattr((undefined(name='meta') if l_0_meta is missing else l_0_meta), 'year'))
    yield ' · '
    yield escape(environment.getattr((undefined(name='meta') if l_0_meta is missing else l_0_meta), 'players'))
    yield ' players'
    if environment.getattr((undefined(name='meta') if l_0_meta is missing else l_0_meta), 'play_time'):
        pass
        yield ' · '
        yield escape(environment.getattr((undefined(name='meta') if l_0_meta is missing else l_0_meta), 'play_time'))
    yield ' · version '
    yield escape(environment.getattr((undefined(name='meta') if l_0_meta is missing else l_0_meta), 'version'))
    yield ' · '
    yield escape((undefined(name='total_faces') if l_0_total_faces is missing else l_0_total_faces))
    yield ' faces, '
    yield escape((undefined(name='total_copies') if l_0_total_copies is missing else l_0_total_copies))
    yield ' components</p>\n<nav>\n'
    for l_1_link in (undefined(name='links') if l_0_links is missing else l_0_links):
        _loop_vars = {}
        pass
        yield '  <a href="'
        yield escape(environment.getattr(l_1_link, 'href'))
        yield '">'
        yield escape(environment.getattr(l_1_link, 'label'))
        yield '</a>\n'
    l_1_link = missing
    yield '</nav>\n\n<section id="validate">\n<h2>Validation</h2>\n'
    if t_2((undefined(name='report') if l_0_report is missing else l_0_report)):
        pass
        yield '<p>No rules checks are registered for this design.</p>\n'
    else:
        pass
        yield '<table class="report">\n'
        for l_1_r in (undefined(name='report') if l_0_report is missing else l_0_report):
            _loop_vars = {}
            pass
            yield '  <tr><td class="'
            yield escape(('ok' if environment.getattr(l_1_r, 'ok') else 'fail'))
            yield '">'
            yield escape(('ok' if environment.getattr(l_1_r, 'ok') else 'FAIL'))
            yield '</td><td>'
            yield escape(environment.getattr(l_1_r, 'name'))
            yield '</td><td>'
            yield escape(environment.getattr(l_1_r, 'message'))
            if environment.getattr(l_1_r, 'details'):
                pass
                yield '<div class="details">'
                yield escape(t_1(context.eval_ctx, environment.getattr(l_1_r, 'details'), '\n'))
                yield '</div>'
            yield '</td></tr>\n'
        l_1_r = missing
        yield '</table>\n<p class="meta">Static checks; <code>pnp validate '
        yield escape((undefined(name='slug') if l_0_slug is missing else l_0_slug))
        yield '</code> also plays seeded games.</p>'
    yield '\n</section>\n\n'
    if (undefined(name='printed') if l_0_printed is missing else l_0_printed):
        pass
        yield '<section id="changes">\n<h2>Changes since '
        yield escape(environment.getattr((undefined(name='printed') if l_0_printed is missing else l_0_printed), 'since'))
        if environment.getattr((undefined(name='printed') if l_0_printed is missing else l_0_printed), 'date'):
            pass
            yield ' <small class="meta">(printed '
            yield escape(environment.getattr((undefined(name='printed') if l_0_printed is missing else l_0_printed), 'date'))
            yield ')</small>'
        yield '</h2>\n'
        for (l_1_heading, l_1_lines) in environment.getattr((undefined(name='printed') if l_0_printed is missing else l_0_printed), 'groups'):
            _loop_vars = {}
            pass
            if l_1_lines:
                pass
                yield '<h3>'
                yield escape(l_1_heading)
                yield '</h3>\n<ul>\n'
                for l_2_line in l_1_lines:
                    _loop_vars = {}
                    pass
                    yield '  <li>'
                    yield escape(l_2_line)
                    yield '</li>\n'
                l_2_line = missing
                yield '</ul>\n'
            else:
                pass
                yield '<p>'
                yield escape(l_1_heading)
                yield '</p>\n'
        l_1_heading = l_1_lines = missing
        yield '<p class="meta">'
        yield escape(environment.getattr((undefined(name='printed') if l_0_printed is missing else l_0_printed), 'faces'))
        yield ' face'
        yield escape(('s' if (environment.getattr((undefined(name='printed') if l_0_printed is missing else l_0_printed), 'faces') != 1) else cond_expr_undefined("the inline if-expression on line 56 in 'index.html.j2' evaluated to false and no else section was defined.")))
        yield ' new or changed, outlined below; <code>pnp reprint '
        yield escape((undefined(name='slug') if l_0_slug is missing else l_0_slug))
        yield '</code> prints them, <code>pnp printed '
        yield escape((undefined(name='slug') if l_0_slug is missing else l_0_slug))
        yield '</code> records what is printed.</p>\n</section>\n\n'
    for l_1_c in (undefined(name='components') if l_0_components is missing else l_0_components):
        _loop_vars = {}
        pass
        yield '<section id="'
        yield escape(environment.getattr(l_1_c, 'id'))
        yield '">\n<h2>'
        yield escape(environment.getattr(l_1_c, 'name'))
        yield ' <small class="meta">('
        yield escape(environment.getattr(l_1_c, 'kind'))
        yield ', '
        yield escape(environment.getattr(l_1_c, 'fronts'))
        yield ' face'
        yield escape(('s' if (environment.getattr(l_1_c, 'fronts') != 1) else cond_expr_undefined("the inline if-expression on line 60 in 'index.html.j2' evaluated to false and no else section was defined.")))
        if (environment.getattr(l_1_c, 'backs') == 1):
            pass
            yield ' + a shared back'
        elif (environment.getattr(l_1_c, 'backs') > 1):
            pass
            yield ' + '
            yield escape(environment.getattr(l_1_c, 'backs'))
            yield ' backs by row'
        yield ', '
        yield escape(environment.getattr(l_1_c, 'copies'))
        yield ' in the box)</small></h2>\n<div class="faces">\n'
        for l_2_f in environment.getattr(l_1_c, 'faces'):
            _loop_vars = {}
            pass
            yield '  <figure'
            if environment.getattr(l_2_f, 'changed'):
                pass
                yield ' class="changed"'
            yield '><div class="face" role="img" aria-label="'
            yield escape(environment.getattr(l_2_f, 'alt'))
            yield '" style="width: '
            yield escape(environment.getattr(l_2_f, 'width'))
            yield 'px; height: '
            yield escape(environment.getattr(l_2_f, 'height'))
            yield 'px">'
            if environment.getattr(l_2_f, 'svg'):
                pass
                yield '<template>'
                yield escape(environment.getattr(l_2_f, 'svg'))
                yield '</template><noscript><img src="'
                yield escape(environment.getattr(l_2_f, 'src'))
                yield '" alt="'
                yield escape(environment.getattr(l_2_f, 'alt'))
                yield '"></noscript>'
            else:
                pass
                yield '<img src="'
                yield escape(environment.getattr(l_2_f, 'src'))
                yield '" alt="'
                yield escape(environment.getattr(l_2_f, 'alt'))
                yield '" loading="lazy">'
            yield '</div><figcaption>'
            if environment.getattr(l_2_f, 'changed'):
                pass
                yield '<span class="changed-tag">changed since '
                yield escape(environment.getattr((undefined(name='printed') if l_0_printed is missing else l_0_printed), 'since'))
                yield '</span>'
            yield '<span class="count">×'
            yield escape(environment.getattr(l_2_f, 'count'))
            yield '</span> '
            yield escape(environment.getattr(l_2_f, 'label'))
            yield '</figcaption></figure>\n'
        l_2_f = missing
        yield '</div>\n</section>\n'
    l_1_c = missing
    yield '\n<script>\n// Each face\'s SVG waits, inert (nothing loaded), in its box\'s <template>; when the box nears the screen it is\n// drawn into the box\'s shadow root, where its ids and styles are its own. A big deck loads only what is seen;\n// printing the page draws every face first.\n(function () {\n  var boxes = Array.prototype.slice.call(document.querySelectorAll(".face"));\n  function draw(box) {\n    var t = box.querySelector(":scope > template");\n    if (t && !box.shadowRoot) box.attachShadow({mode: "open"}).appendChild(t.content);\n  }\n  window.addEventListener("beforeprint", function () { boxes.forEach(draw); });\n  if (!("IntersectionObserver" in window)) { boxes.forEach(draw); return; }\n  var near = new IntersectionObserver(function (entries) {\n    entries.forEach(function (e) { if (e.isIntersecting) { near.unobserve(e.target); draw(e.target); } });\n  }, {rootMargin: "600px 0px"});\n  boxes.forEach(function (box) { near.observe(box); });\n})();\n</script>\n</body>\n</html>\n'

blocks = {}
debug_info = '5=33&28=35&30=38&34=41&35=43&37=62&42=72&44=78&46=97&49=100&50=103&51=110&53=118&55=129&56=133&59=141&60=147&62=165&63=179&64=191&65=196'