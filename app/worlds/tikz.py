"""A model as a TikZ picture for slides: a complete LaTeX document whose ``tikzpicture``
draws the worlds at given positions (a puzzle's geometry) or on a grid, the actual world doubly
circled, each agent's class as a chain of edges labelled with the agent in its colour
(:mod:`app.worlds.palette`; S5's reflexive and transitive edges are left out, as textbooks do),
a belief model's arrows as arrows, bent as the page's graph bends them
(:mod:`app.worlds.geometry`). It reads the model's listing (:class:`kripke.kernel.Listing`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from app.worlds.geometry import bend_control, clear_bend, curve_point, level_places
from app.worlds.palette import agent_colour
from kripke.errors import ModelTooLargeError
from kripke.kernel import Listing
from kripke.language.formula import Agent


class Listable(Protocol):
    """A model that writes its worlds out (:meth:`kripke.kernel.Model.listing`)."""

    @property
    def n_worlds(self) -> int: ...

    def listing(self, limit: int) -> Listing: ...

# --- LaTeX text ---------------------------------------------------------------------------------

_LATEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "#": r"\#",
          "&": r"\&", "%": r"\%", "$": r"\$", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}",
          # OT1, the default font encoding, draws these as other signs (< as an inverted !)
          "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
          '"': r"\texttt{\char34}", "-": "-{}"}  # "--" would join into a dash
#: Letters and signs outside ASCII that pdflatex's default fonts (Computer Modern, OT1) draw.
_TEXT_SIGNS = {"ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}", "œ": r"\oe{}", "Œ": r"\OE{}",
               "ø": r"\o{}", "Ø": r"\O{}", "ł": r"\l{}", "Ł": r"\L{}", "ı": r"\i{}",
               "ȷ": r"\j{}", "¡": r"\textexclamdown{}", "¿": r"\textquestiondown{}",
               "£": r"\pounds{}", "§": r"\S{}", "¶": r"\P{}", "©": r"\copyright{}",
               "†": r"\dag{}", "‡": r"\ddag{}", "–": "--", "—": "---", "‘": "`", "’": "'",
               "“": "``", "”": "''", "…": r"\dots{}", "·": r"$\cdot$", "°": r"$^\circ$",
               "×": r"$\times$", "÷": r"$\div$", "±": r"$\pm$", "¬": r"$\neg$"}
#: The accents (combining marks, as NFD writes an accented letter) OT1 puts on a letter.
_TEXT_ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=",
                 "\u0306": "u", "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030b": "H",
                 "\u030c": "v", "\u0323": "d", "\u0327": "c", "\u0331": "b"}
_BELOW = ("\u0323", "\u0327", "\u0331")  # dot, cedilla and line below: an i keeps its dot
#: Greek, which Computer Modern has in math (the capitals that look Latin are Latin there).
_GREEK = dict(zip("αβγδεζηθικλμνξοπρςστυφχψωΓΔΘΛΞΠΣΥΦΨΩΑΒΕΖΗΙΚΜΝΟΡΤΧ", [
    *(rf"\{n}" for n in ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu "
                          "nu xi").split()), "o",
    *(rf"\{n}" for n in ("pi rho varsigma sigma tau upsilon varphi chi psi omega Gamma Delta "
                          "Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega").split()),
    *(rf"\mathrm{{{c}}}" for c in "ABEZHIKMNOPTX")], strict=True))
#: Accents on Greek letters (tonos, dialytika), as math accents.
_MATH_ACCENTS = {"\u0300": "grave", "\u0301": "acute", "\u0304": "bar", "\u0306": "breve",
                 "\u0308": "ddot"}


def latex(text: str) -> str:
    """Text safe inside a LaTeX document that pdflatex compiles with its default fonts, in any
    script: LaTeX's special characters escaped; letters of Latin scripts with their accents and
    Greek drawn; any other character (Cyrillic, CJK, a control character) written as its code
    point in small capitals (``\\textsc{u+4e2d}``), so the slide compiles and still tells
    two names apart."""
    drawn = "".join(_latex_char(c) for c in unicodedata.normalize("NFC", text))
    return drawn.replace(r"}\textsc{u+", r"}\,\textsc{u+")  # code points a thin space apart


def _latex_char(char: str) -> str:
    """One character as pdflatex's default fonts can draw it (see :func:`latex`)."""
    if char in _LATEX:
        return _LATEX[char]
    if char.isascii() and char.isprintable():
        return char
    if char in _TEXT_SIGNS:
        return _TEXT_SIGNS[char]
    if char in _GREEK:
        return f"${_GREEK[char]}$"
    decomposed = unicodedata.normalize("NFD", char)
    base, marks = decomposed[0], decomposed[1:]
    if marks and (base.isascii() and base.isalpha() or base in "ıȷ") and \
            all(m in _TEXT_ACCENTS for m in marks):
        drawn = base if base not in "ij" or marks[0] in _BELOW else rf"\{base}{{}}"  # dotless
        for mark in marks:
            drawn = f"\\{_TEXT_ACCENTS[mark]}{{{drawn}}}"
        return drawn
    if marks and base in _GREEK and all(m in _MATH_ACCENTS for m in marks):
        drawn = _GREEK[base]
        for mark in marks:
            drawn = f"\\{_MATH_ACCENTS[mark]}{{{drawn}}}"
        return f"${drawn}$"
    return rf"\textsc{{u+{ord(char):04x}}}"


#: The textbook's logical symbols in LaTeX math.
_MATH = {"¬": r"\neg", "∧": r"\land", "∨": r"\lor", "→": r"\to", "↔": r"\leftrightarrow",
         "⊤": r"\top", "⊥": r"\bot", "φ": r"\varphi", "ψ": r"\psi", "⟨": r"\langle",
         "⟩": r"\rangle"}
#: A modality with its agent or group: K_a, C_{a,b}.
_MODALITY = re.compile(r"\b([KMECD])_(\{[^{}]*\}|\w+)")


def latex_formula_text(text: str) -> str:
    """Text that may hold formulas in the textbook's notation (a caption: "you announced
    ¬K_a p ∧ q"), safe inside LaTeX, its symbols and modalities in math (``\\neg``,
    ``\\land``, ``K_{a}``) as a slide writes them; the rest as :func:`latex`."""
    out, at = [], 0
    for found in _MODALITY.finditer(text):
        out.append(_math_symbols(text[at:found.start()]))
        agents = found.group(2).strip("{}")
        out.append(f"$\\mathit{{{found.group(1)}}}_{{{latex(agents)}}}$")
        at = found.end()
    out.append(_math_symbols(text[at:]))
    return "".join(out)


def _math_symbols(text: str) -> str:
    return "".join(f"${_MATH[c]}$" if c in _MATH else _latex_char(c)
                   for c in unicodedata.normalize("NFC", text))


#: A beamer frame's picture area, in cm: what a TikZ drawing fits by default (``size``).
SLIDE = (12.0, 8.5)
#: Estimates for laying the drawing out (cm): a \\scriptsize character's width and line's
#: height, a world's radius (10pt across, or the actual world's double line) and the room an
#: edge keeps from a world it does not join.
_CHAR, _LINE, _RADIUS, _GAP = 0.13, 0.3, 0.2, 0.35
#: The longest line of a world's label before it wraps (characters).
_WRAP = 18


def to_tikz(model: Listable,
            positions: Mapping[int, tuple[float, float]] | None = None,
            # a caller's namer takes the kind of model it passes
            name: Callable[[Any, int], str] | None = None,
            agent_names: Mapping[Agent, str] | None = None, max_worlds: int = 200,
            title: str = "", colours: Mapping[Agent, str] | None = None,
            size: tuple[float, float] = SLIDE,
            name_sides: Mapping[int, tuple[float, float]] | None = None) -> str:
    """A LaTeX document drawing the model; positions by world id (y grows downwards, as on
    screen), else a grid; each world's name under it, or (``name_sides``, by world id) on the
    side that way points (y down), where the page wrote it clear of the edges. Refused past
    ``max_worlds`` worlds: a slide cannot show more.
    ``colours``: each agent's as ``#rrggbb`` (the page passes the ones it draws with); by
    default :mod:`app.worlds.palette`'s by the agent's place in the model. The tikzpicture, names
    under the worlds included, fits ``size`` (width, height in cm; a beamer frame's by
    default), and no edge runs through a world it does not join: it bends around it.

    A model that is not S5 (belief) is drawn as the page draws it: an arrow (``->``) per
    pair an agent's relation joins, ``<->`` for a pair of opposite arrows, and a loop
    (``loop above``) on each world possible from itself, unless the agent's relation is
    reflexive, when textbooks leave its loops out; the caption under the picture says so."""
    if model.n_worlds > max_worlds:
        raise ModelTooLargeError(model.n_worlds, max_worlds, task="to draw for a slide",
                                 advice="restrict the model")
    listing = model.listing(max_worlds)
    n, ids = listing.n_worlds, list(listing.ids)
    if positions is None or any(w not in positions for w in ids):
        columns = max(1, math.ceil(math.sqrt(n)))
        place = {w: (float(i % columns), float(i // columns)) for i, w in enumerate(ids)}
    else:  # in units of about a world's spacing (positions may come in pixels)
        xs, ys = [positions[w][0] for w in ids], [positions[w][1] for w in ids]
        scale = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9) / max(math.sqrt(n), 1.0)
        place = {w: ((positions[w][0] - min(xs)) / scale, (positions[w][1] - min(ys)) / scale)
                 for w in ids}
    labels = {w: _label_lines(name(model, i) if name else listing.labels[i])
              for i, w in enumerate(ids)}
    ordered = _ordered_agent(listing)
    believed: set[int] = set()
    if ordered is not None and listing.levels is not None:
        # plausibility: the agent's classes in columns, its levels in rows
        k = listing.agents.index(ordered)
        level = listing.levels[k]
        classes = _class_keys(listing, k)
        place = level_places(ids, classes, list(level))
        for i, w in enumerate(ids):
            labels[w].append(f"level {level[i]}")
        if listing.actual is not None:  # the most plausible of the actual world's class
            believed = {ids[i] for i in range(n) if classes[i] == classes[listing.actual]
                        and level[i] == 0}
    directed = not listing.partitions
    arrows = _tikz_arrows(listing) if directed else {}
    edges = {pair: [a for a, _ in who] for pair, who in arrows.items()} if directed else \
        _tikz_edges(listing, place)
    unit = _fit(place, labels, {}, size)
    bends = _bends(place, edges, _GAP / unit)
    unit = _fit(place, labels, bends, size)
    lines = [
        "% A Kripke model drawn by ttr-kripke. Paste the tikzpicture into your slides",
        f"% (it needs \\usepackage{{tikz}}; it fits {size[0]:g} cm x {size[1]:g} cm, a beamer "
        "frame).",
        "\\documentclass{article}",
        "\\usepackage[margin=1cm,landscape]{geometry}",
        "\\usepackage{tikz}",
        "\\pagestyle{empty}",
    ]
    lines.append("\\begin{document}")
    if title:
        lines.append(f"\\noindent\\textbf{{{latex_formula_text(title)}}}\\par\\medskip")
    lines += [
        f"\\begin{{tikzpicture}}[x={unit:.4f}cm,y=-{unit:.4f}cm,",
        "  world/.style={circle,draw,fill=white,inner sep=1.5pt,minimum size=10pt},",
        "  actual/.style={world,double,thick},",
        "  label text/.style={font=\\scriptsize,align=center,inner sep=1pt,fill=white},",
        "  edge/.style={thick,>=stealth}]",
    ]
    # the page's colours (app.worlds.palette), defined inside the picture so it pastes whole
    for k, agent in enumerate(listing.agents):
        hex_colour = (colours or {}).get(agent) or agent_colour(k)
        lines.append(f"\\definecolor{{agent{k}}}{{HTML}}{{{hex_colour.lstrip('#').upper()}}}")
    names: list[str] = []
    for i, w in enumerate(ids):
        x, y = place[w]
        style = "actual" if i == listing.actual else "world"
        # {} before a line starting '[' or '*': \\ would read it as a length or its star form
        text = "\\\\".join("{}" * (line[:1] in ("[", "*")) + latex(line) for line in labels[w])
        lines.append(f"\\node[{style}] (w{w}) at ({x:.3f},{y:.3f}) {{}};")
        names.append(_name_node(w, text, (name_sides or {}).get(w)))
        if w in believed:
            names.append(f"\\node[anchor=south east,inner sep=0pt] at (w{w}.north west) "
                         "{$\\star$};")
    colour = {str(a): f"agent{k}" for k, a in enumerate(listing.agents)}
    if directed:
        lines += _arrow_lines(listing, arrows, bends, place, colour, agent_names)
        lines += _loop_lines(listing, place, colour, agent_names, name_sides)
    for (a, b), who in ({} if directed else edges).items():
        shown = ",".join(latex(agent_names.get(listing.agent(x), x) if agent_names else x)
                         for x in who)
        label = f"node[font=\\scriptsize,fill=white,inner sep=1pt] {{{shown}}}"
        lines.append(_draw(f"edge,{colour[who[0]]}", a, b, bends.get((a, b), 0.0), place,
                           label))
    # the names last, on white: an edge that passes under one does not strike it through
    lines += [*names, "\\end{tikzpicture}"]
    if ordered is not None:
        agent = latex(agent_names.get(ordered, str(ordered)) if agent_names else str(ordered))
        lines.append(f"\\par\\medskip\\noindent{{\\small Columns: the classes of {agent} "
                     f"(knowledge); rows: the plausibility levels of {agent} within each class, "
                     "the most plausible (level 0) on top; $\\star$: the worlds "
                     f"{agent} believes in at the actual world.}}")
    lines += ["\\end{document}", ""]
    return "\n".join(lines)


def _ordered_agent(listing: Listing) -> Agent | None:
    """The first agent whose plausibility order is not flat (a slide draws its levels)."""
    if listing.levels is None:
        return None
    return next((a for a, level in zip(listing.agents, listing.levels, strict=True)
                 if any(level)), None)


def _class_keys(listing: Listing, k: int) -> list[int]:
    """Agent ``k``'s class per world, numbered as first met (its arrows join a class)."""
    keys: dict[tuple[int, ...], int] = {}
    return [keys.setdefault(reached, len(keys)) for reached in listing.reached(k)]


def _name_node(w: int, text: str, side: tuple[float, float] | None) -> str:
    """The node of world ``w``'s name: under it, or on ``side`` (a way, y down): touching the
    world's circle at that angle, by the name's own border point facing the world."""
    if side is None or math.hypot(*side) < 1e-9:
        return f"\\node[label text,anchor=north] at (w{w}.south) {{{text}}};"
    angle = round(math.degrees(math.atan2(-side[1], side[0]))) % 360  # TikZ's y points up
    return f"\\node[label text,anchor={(angle + 180) % 360}] at (w{w}.{angle}) {{{text}}};"


def _draw(style: str, a: int, b: int, bend: float, place: Mapping[int, tuple[float, float]],
          label: str) -> str:
    """The ``\\draw`` of one edge from world ``a`` to ``b``: straight, or bent as the page
    bends it (a cubic through the same control points)."""
    if not bend:
        return f"\\draw[{style}] (w{a}) -- {label} (w{b});"
    (c1x, c1y), (c2x, c2y) = _cubic(place[a], place[b], bend)
    return (f"\\draw[{style}] (w{a}) .. controls ({c1x:.3f},{c1y:.3f}) and "
            f"({c2x:.3f},{c2y:.3f}) .. {label} (w{b});")


def _label_lines(text: str) -> list[str]:
    """A world's name broken for the slide: after ``name:``, then at spaces past ``_WRAP``."""
    head, sep, tail = text.partition(": ")
    parts = [head + sep.strip(), tail] if sep and tail else [text]
    lines: list[str] = []
    for part in parts:
        line = ""
        for word in part.split(" "):
            if line and len(line) + 1 + len(word) > _WRAP:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return lines


def _tikz_arrows(listing: Listing) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """Per pair of world ids (as first met), each agent's arrow tip between them: ``->``,
    ``<-``, or ``<->`` for a pair of opposite arrows drawn as one line."""
    ids = listing.ids
    out: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for agent, listed in zip(listing.agents, listing.arrows, strict=True):
        given = set(listed)
        for w, v in sorted(given):
            if w == v or ((v, w) in given and v < w):
                continue
            pair = (ids[w], ids[v])
            out.setdefault(pair, []).append((str(agent), "<->" if (v, w) in given else "->"))
    return out


def _arrow_lines(listing: Listing,
                 arrows: Mapping[tuple[int, int], list[tuple[str, str]]],
                 bends: Mapping[tuple[int, int], float],
                 place: Mapping[int, tuple[float, float]], colour: Mapping[str, str],
                 agent_names: Mapping[Agent, str] | None) -> list[str]:
    """The arrows' ``\\draw`` lines: the first agent on a pair bent around the worlds in
    its way (as the page), the others bent further aside, one curve each."""
    lines = []
    for (a, b), who in arrows.items():
        for k, (agent, tip) in enumerate(who):
            shown = latex(agent_names.get(listing.agent(agent), agent) if agent_names
                          else agent)
            label = f"node[font=\\scriptsize,fill=white,inner sep=1pt] {{{shown}}}"
            style = f"edge,{tip},{colour[agent]}"
            if k:
                lines.append(f"\\draw[{style}] (w{a}) to[bend left={14 * k}] {label} (w{b});")
            else:
                lines.append(_draw(style, a, b, bends.get((a, b), 0.0), place, label))
    return lines


#: The sides a loop may take, with their directions (y down): never below, where the name is.
_SIDES = {"above": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}


def _loop_lines(listing: Listing, place: Mapping[int, tuple[float, float]],
                colour: Mapping[str, str], agent_names: Mapping[Agent, str] | None,
                name_sides: Mapping[int, tuple[float, float]] | None = None) -> list[str]:
    """A loop per world possible from itself, of each agent whose relation is not reflexive:
    on the side of the world (above, left or right; below too when its name is elsewhere,
    ``name_sides``) farthest from its edges and its name, above when that is free, another
    side for a second agent's loop there."""
    ids = listing.ids
    joined: dict[int, set[int]] = {}
    for listed in listing.arrows:
        for w, v in listed:
            if w != v:
                joined.setdefault(ids[w], set()).add(ids[v])
                joined.setdefault(ids[v], set()).add(ids[w])
    lines = []
    taken: dict[int, list[str]] = {}
    looping = [a for a, found in zip(listing.agents, listing.properties, strict=True)
               if "reflexive" not in found]
    for agent in looping:
        shown = latex(agent_names.get(agent, str(agent)) if agent_names else str(agent))
        for w, v in listing.agent_arrows(agent):
            if w != v:
                continue
            wid = ids[w]
            x, y = place[wid]
            ways = [(place[o][0] - x, place[o][1] - y) for o in joined.get(wid, ())]
            sides = dict(_SIDES)
            named = (name_sides or {}).get(wid)
            if named is not None:  # a loop keeps off the name, which is not below
                ways.append(named)
                sides["below"] = (0.0, 1.0)
            free = [side for side in sides if side not in taken.get(wid, [])] or list(sides)
            side = max(free, key=lambda s: (min(_room(sides[s], ways), 0.0),
                                            -list(sides).index(s)))
            taken.setdefault(wid, []).append(side)
            lines.append(f"\\draw[edge,->,{colour[str(agent)]}] (w{wid}) "
                         f"to[loop {side},min distance=4mm] "
                         f"node[font=\\scriptsize,inner sep=1pt] {{{shown}}} (w{wid});")
    left = [str(a) for a in listing.agents if a not in looping]
    if left:
        lines.append(f"% loops left out for {', '.join(left)}: a reflexive relation, as "
                     "textbooks draw it")
    return lines


def _room(side: tuple[float, float], ways: list[tuple[float, float]]) -> float:
    """How free a side of a world is of its edges (``ways``, towards the worlds they join):
    minus the greatest cosine between the side and an edge; 0 or more means no edge leans
    that way."""
    return -max(((side[0] * u + side[1] * t) / (math.hypot(u, t) or 1.0) for u, t in ways),
                default=-1.0)


def _tikz_edges(listing: Listing, place: Mapping[int, tuple[float, float]]
                ) -> dict[tuple[int, int], list[str]]:
    """Each agent's class (the worlds it considers possible from each other, read from its
    arrows, which both kinds of model answer) as a chain through its worlds in reading order
    (S5's reflexive and transitive edges left out), the agents on one pair merged into one
    edge."""
    ids = listing.ids
    edges: dict[tuple[int, int], list[str]] = {}
    for k, agent in enumerate(listing.agents):
        classes: dict[tuple[int, ...], list[int]] = {}
        for w, reached in zip(ids, listing.reached(k), strict=True):
            classes.setdefault(reached, []).append(w)
        for members in classes.values():
            members.sort(key=lambda v: (place[v][1], place[v][0]))
            for a, b in zip(members, members[1:], strict=False):
                edges.setdefault((a, b), []).append(str(agent))
    return edges


def _bends(place: Mapping[int, tuple[float, float]], edges: Mapping[tuple[int, int], object],
           gap: float) -> dict[tuple[int, int], float]:
    """Each edge's bend (in the drawing's units): none unless its line would pass within
    ``gap`` of a world it does not join."""
    out = {}
    for a, b in edges:
        others = [p for w, p in place.items() if w not in (a, b)]
        out[(a, b)] = clear_bend(place[a], place[b], others, gap)
    return out


def _cubic(p: tuple[float, float], q: tuple[float, float], bend: float
           ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two control points TikZ's cubic curve needs to draw the quadratic curve bent
    ``bend`` (the same curve as on the page)."""
    cx, cy = bend_control(p[0], p[1], q[0], q[1], bend)
    return ((p[0] + 2 * (cx - p[0]) / 3, p[1] + 2 * (cy - p[1]) / 3),
            (q[0] + 2 * (cx - q[0]) / 3, q[1] + 2 * (cy - q[1]) / 3))


def _fit(place: Mapping[int, tuple[float, float]], labels: Mapping[int, list[str]],
         bends: Mapping[tuple[int, int], float], size: tuple[float, float]) -> float:
    """cm per unit: the most (at most 3, so a few worlds are not spread thin) at which the
    worlds, their names and the bent edges fit ``size``."""
    def extent(unit: float) -> tuple[float, float]:
        left, right, top, bottom = [], [], [], []
        for w, (x, y) in place.items():
            half = max(_RADIUS, max(len(t) for t in labels[w]) * _CHAR / 2)
            left.append(x * unit - half)
            right.append(x * unit + half)
            top.append(y * unit - _RADIUS - _LINE)  # a loop above, its label
            bottom.append(y * unit + 2 * _RADIUS + len(labels[w]) * _LINE)
        for (a, b), bend in bends.items():
            if bend:
                x, y = curve_point(place[a], place[b], bend, 0.5)
                left.append(x * unit)
                right.append(x * unit)
                top.append(y * unit)
                bottom.append(y * unit)
        return max(right) - min(left), max(bottom) - min(top)

    low, high = 0.0, 3.0
    if all(a <= b for a, b in zip(extent(high), size, strict=True)):
        return high
    for _ in range(40):
        middle = (low + high) / 2
        if all(a <= b for a, b in zip(extent(middle), size, strict=True)):
            low = middle
        else:
            high = middle
    return max(low, 0.01)
