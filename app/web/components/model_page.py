"""The "Your model" page: a teacher writes (or uploads, or picks and edits) a Kripke model in
the hand-written format of ``kripke.files.modelfile`` and explores it exactly as a puzzle: the same
picture (classes or the textbook graph), formula box, Announce, Why?, timeline and exports,
since the page hands the model to ``PuzzlePage`` as a puzzle without a story.

The text is the one source of truth. It is read as you type (``kripke.parse_model``, never
``eval``); a mistake is shown under the line it names, with a caret at its column, and the
picture keeps the last model that read. The controls beside the picture (add a world, toggle
an atom, join or split worlds for an agent, choose the actual world) edit a ``Draft`` of that
model and write the text again with ``kripke.dump_model`` (an S5 model's classes, a belief
model's arrows). Undo steps back through the texts. A link carries the text and the story told
on it up to the moment shown, each announcement, event and minimisation, in its query string
(up to ``SHARE_LIMIT`` characters); opening it makes them again (:func:`replay`) and shows that
moment, Back going through them. Minimise contracts the model at any moment.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, cast
from urllib.parse import parse_qsl, quote, urlencode

import solara
from solara.components.file_drop import FileInfo

from app.web.components.events import written_event
from app.web.components.puzzles import (
    ANNOUNCE,
    EVENT,
    MINIMISE,
    Moment,
    PuzzlePage,
    Shown,
    announced,
    describe_plainly,
    happened,
    minimised,
)
from app.web.components.upload_button import UploadButton
from app.web.components.words import counted
from app.web.model_edits import EDIT_LIMIT, BeliefDraft, Draft
from app.worlds.layout import partitioned
from kripke import ModelFileError, dump_model, load_model, parse
from kripke.files.modelfile import parse_model, starter_models
from kripke.parts import Drawn, Partitioned
from kripke.puzzles.gallery import Puzzle

#: The models the page starts from: the files kripke ships (``kripke/models``), by name.
STARTERS: dict[str, str] = starter_models()
FIRST = "alice-bob" if "alice-bob" in STARTERS else next(iter(STARTERS))
#: The longest text the page reads (a model typed or uploaded here is small; the command
#: ``ttr-kripke model FILE`` reads bigger ones).
TEXT_LIMIT = 20_000
#: The most worlds the page explores (a teacher's model; the game page has the big ones).
WORLDS_LIMIT = 2_000
#: The longest text a share link carries: browsers and servers cut longer addresses.
SHARE_LIMIT = 2_000
#: A byte-order mark: Notepad starts a UTF-8 file with one, and a paste may carry it.
BOM = "\ufeff"
#: Texts kept for Undo.
UNDO = 100


@dataclass(frozen=True)
class Reading:
    """What a text says: a model, or the mistake (its line and column when it names one)."""

    model: Drawn | None = None  # an S5 model, or a belief model (arrows)
    error: str = ""
    line: int = 0
    column: int = 0


def read_model(text: str) -> Reading:
    """The text as a model, or why not. A text is read as a text, never as a file name (a
    browser must not open files on the server): JSON when it starts with '{', else the
    hand-written format."""
    text = text.removeprefix(BOM)
    if len(text) > TEXT_LIMIT:
        return Reading(error=f"the text has {len(text):,} characters; the page reads up to "
                             f"{TEXT_LIMIT:,} (use 'ttr-kripke model FILE' for bigger models)")
    try:
        model = load_model(text) if text.lstrip().startswith("{") else parse_model(text)
    except ModelFileError as e:  # a JSON field's error names its path, not a line
        if e.line is None:
            return Reading(error=str(e))
        return Reading(error=e.message, line=e.line, column=e.column or 1)
    except ValueError as e:  # any other ModelError
        return Reading(error=str(e))
    if model.n_worlds > WORLDS_LIMIT:
        return Reading(error=f"{model.n_worlds:,} worlds; the page explores up to "
                             f"{WORLDS_LIMIT:,} (use 'ttr-kripke model FILE' for this one)")
    return Reading(model)


def error_html(text: str, reading: Reading) -> str:
    """The mistake under the line it names, a caret at its column (like a formula's)."""
    if not reading.error:
        return ""
    lines = text.split("\n")
    if 1 <= reading.line <= len(lines):
        line = lines[reading.line - 1]
        caret = " " * max(reading.column - 1, 0) + "^"
        shown = (f"line {reading.line}:\n{line}\n{caret}\n{reading.error}")
    else:
        shown = reading.error
    return (f"<pre data-testid='model-error' data-line='{reading.line}' style='color:#b71c1c;"
            f"background:#ffebee;padding:6px;margin:4px 0 0;white-space:pre-wrap;"
            f"font-size:13px'>{escape(shown)}</pre>")


def uploaded_text(name: str, data: bytes) -> tuple[str | None, str]:
    """An uploaded file's text and what to say about it (refused: None and why)."""
    if len(data) > TEXT_LIMIT:
        return None, too_big(name, len(data))
    try:
        # utf-8-sig: Notepad starts a UTF-8 file with a byte-order mark (the CLI reads so too)
        return data.decode("utf-8-sig"), f"Read {name}."
    except UnicodeDecodeError:
        return None, (f"{name} is not a text file (UTF-8); a model file is text such as "
                      "'agents: a b'.")


def too_big(name: str, size: int) -> str:
    """What the page says of a file too big to read."""
    return (f"{name} has {size:,} bytes; the page reads up to {TEXT_LIMIT:,} (use "
            "'ttr-kripke model FILE').")


def examples(model: Drawn) -> tuple[str, ...]:
    """Formulas with this model's own atoms and agents, to show the syntax."""
    if not model.atoms:
        return ("true", "C true")
    p = str(model.atoms[0])
    a, b = str(model.agents[0]), str(model.agents[-1])
    return (f"K_{a} {p}", f"K_{a} {p} | K_{a} ~{p}", f"M_{b} ~{p}", f"K_{b} K_{a} {p}",
            f"C {p}", f"[!{p}] K_{b} {p}")


def as_puzzle(model: Drawn, key: str) -> Puzzle:
    """The model as a puzzle without a story: the puzzle page's timeline, picture, formula
    box and exports then work on it as on any puzzle."""
    return Puzzle(f"model:{key}", key, "", model, (), {a: str(a) for a in model.agents},
                  describe_plainly, examples(model), "")


def source(text: str) -> str:
    """Where a starter comes from: its ``# Source:`` comment, with the comment lines that go
    on with it (up to the next ``Word:`` comment or the model itself); "" if it names none.
    A starter is one file in ``kripke/models`` that says its source so."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("# Source:")), None)
    if start is None:
        return ""
    said = [lines[start].removeprefix("# Source:").strip()]
    for line in lines[start + 1:]:
        if not line.startswith("# ") or re.match(r"# \w+:", line):
            break
        said.append(line[2:].strip())
    return " ".join(said)


#: What a model typed on the page (a starter changed) is called in its files and titles.
OWN = "my-model"


def shown_name(source: str, text: str) -> str:
    """What the model is called in the downloads and the TikZ title: the starter's name while
    the text is still that starter's, "my-model" once it is changed (it is no longer that
    model); an uploaded file or a shared link keeps its name."""
    return OWN if source in STARTERS and STARTERS[source] != text else source


#: The most steps a share link replays (a lesson's story is a few; each may be an event).
STEPS_LIMIT = 100


@dataclass(frozen=True)
class Link:
    """What a share link carries: the model's text and the story told on it, each step its
    kind (``announce``, ``event``, ``minimise``) and its text, in order; or, past
    ``SHARE_LIMIT`` characters (a browser or server may have cut it), nothing and why."""

    text: str | None = None
    steps: tuple[tuple[str, str], ...] = ()
    notice: str = ""


def link_size(text: str, steps: Sequence[tuple[str, str]]) -> int:
    """How many characters a link's model and story count against ``SHARE_LIMIT`` (each step
    one more than its text: a minimisation has none)."""
    return len(text) + sum(len(said) + 1 for _, said in steps)


def read_link(search: str | None) -> Link:
    """The model and story a share link carries (``?model=...&event=...&announce=...``)."""
    pairs = parse_qsl(search or "", keep_blank_values=True)
    text = next((value for key, value in pairs if key == "model"), "")
    if not text:
        return Link()
    steps = tuple((key, value) for key, value in pairs if key in (ANNOUNCE, EVENT, MINIMISE))
    size = link_size(text, steps)
    if size <= SHARE_LIMIT:
        return Link(text, steps)
    what = f"model and its {counted(len(steps), 'step')} have" if steps else "model has"
    return Link(notice=f"The link's {what} {size:,} characters; a link carries up to "
                       f"{SHARE_LIMIT:,}, so it may have been cut and is not read. Ask for the "
                       "file and upload it instead.")


def replay(start: Drawn, steps: Sequence[tuple[str, str]]) -> tuple[tuple[Moment, ...],
                                                                          str]:
    """The moments a link's story makes from the model, as the page made them (each event
    checked as the Event control checks one), and what to say when a step cannot be made
    again (the story then stops at the moment before it)."""
    moments = [Moment("the start", start, 0)]
    for k, (kind, said) in enumerate(steps[:STEPS_LIMIT], 1):
        moment = moments[-1]
        model = moment.model
        try:
            if kind == ANNOUNCE:
                formula = parse(said)  # parsed once: announced and written from it
                moments.append(announced(moment, formula, said, model.announce(formula)))
            elif kind == EVENT:
                event = written_event(model, said)
                if event.events is None:
                    raise ValueError(event.error)
                moments.append(happened(moment, event, model.update(event.events),
                                        event.events.observations(model.agents)))
            else:
                moments.append(minimised(moment))
        except ValueError as e:
            return tuple(moments), (f"The link's step {k} ({kind} {said!r}) cannot be made "
                                    f"again: {e}. The page shows the moment before it.")
    if len(steps) > STEPS_LIMIT:
        return tuple(moments), (f"The link has {len(steps):,} steps; the page makes the first "
                                f"{STEPS_LIMIT} again.")
    return tuple(moments), ""


def share_html(text: str, steps: Sequence[tuple[str, str]] = ()) -> str:
    """The link to the model and its story up to the moment shown (or why there is none)."""
    size = link_size(text, steps)
    if size > SHARE_LIMIT:
        back = ", or go Back to a moment with fewer steps" if steps else ""
        return (f"<span data-testid='share-link' style='opacity:.75'>Too long to share by "
                f"link ({size:,} characters; {SHARE_LIMIT:,} at most): download the file "
                f"instead{back}.</span>")
    href = "/model?" + urlencode([("model", text), *steps], quote_via=quote)
    said = ("link to this model" if not steps else
            f"link to this moment (the model and {counted(len(steps), 'step')})")
    return (f"<a data-testid='share-link' href='{escape(href)}' target='_blank' "
            f"title='the model and what was done to it, in a link: copy it to share'>"
            f"{escape(said)}</a>")


@solara.component
def ModelPage(home: Callable[[], object] = lambda: None, search: str | None = None):
    link = solara.use_memo(lambda: read_link(search), [search])
    first = link.text
    text = solara.use_reactive(first if first is not None else STARTERS[FIRST])
    name = solara.use_reactive("shared" if first is not None else FIRST)
    history: solara.Reactive[tuple[str, ...]] = solara.use_reactive(())
    reading = solara.use_memo(lambda: read_model(text.value), [text.value])
    # the picture keeps the last model that read while the text has a mistake
    kept: list[Drawn | None] = solara.use_memo(lambda: [None], [])
    if reading.model is not None:
        kept[0] = reading.model
    model = kept[0]
    called = shown_name(name.value, text.value)
    puzzle = solara.use_memo(lambda: None if model is None else as_puzzle(model, called),
                             [model, called])
    # the link's story, made again on the model its text reads as (the page opens at its
    # last moment; once the text changes, it is another model's story no more)
    opening, unmade = solara.use_memo(
        lambda: replay(model, link.steps) if model is not None and link.steps and
        text.value == first else ((), ""), [model])
    notice = link.notice or unmade

    def write(new: str, called: str | None = None) -> None:
        """A new text (typed, picked, uploaded or edited on the picture); Undo comes back."""
        if new == text.value and called is None:
            return
        history.set((*history.value, text.value)[-UNDO:])
        if called is not None:
            name.set(called)
        text.set(new)

    def undo() -> None:
        if history.value:
            text.set(history.value[-1])
            history.set(history.value[:-1])

    def side(shown: Shown | None = None) -> None:
        """The editor; ``shown``, the timeline beside it (None: no model has read yet)."""
        story = () if shown is None else \
            tuple(m.made for m in shown.moments[1:shown.at + 1] if m.made is not None)
        with solara.Card("The model", margin=0, classes=["ttr-card"]):
            Editor(text.value, reading, called, write, undo, bool(history.value), notice,
                   story)
            if shown is not None:
                Minimise(shown, reading.model is not None,
                         lambda new: write(new, f"{name.value}-minimised"))
            if model is not None:
                EditPanel(model, reading.model is not None, write)

    if puzzle is None:  # a shared link that does not read, before any model did
        with solara.Column(style="padding:8px"):
            with solara.Row(style="align-items:center"):
                solara.HTML(tag="div", unsafe_innerHTML="Your model", classes=["ttr-brand"])
                home()
            side()
        return None
    return PuzzlePage(home, given=puzzle, side=side, brand="Your model", opening=opening)


@solara.component
def Editor(text: str, reading: Reading, name: str, write: Callable[..., None],
           undo: Callable[[], None], can_undo: bool, notice: str = "",
           story: Sequence[tuple[str, str]] = ()):
    """The text box, its verdict, the starters, Upload, Download, Undo and the share link
    (of the text and ``story``, what was done to it up to the moment shown); ``notice``,
    what to say first (a share link too long to read, or whose story stopped)."""
    said = solara.use_reactive(notice)

    def upload(info: FileInfo) -> None:
        """A chosen or dropped file, its size known before any of it comes: past the limit
        only the message (read whole, a file of 16 MB closed the page's connection)."""
        if info["size"] > TEXT_LIMIT:
            said.set(too_big(info["name"], info["size"]))
            return
        read(info["name"], info["file_obj"].read(TEXT_LIMIT + 1))

    def read(name: str, data: bytes) -> None:
        """The file's text into the box, then the message: "Read" once it is there."""
        uploaded, message = uploaded_text(name, data)
        if uploaded is not None:
            write(uploaded, name.rsplit(".", 1)[0] or "uploaded")
        said.set(message)

    with solara.Row(gap="8px", style="align-items:center;flex-wrap:wrap"):
        solara.Select("Start from", value=name if name in STARTERS else None,
                      values=list(STARTERS), dense=True, style="max-width:190px",
                      on_value=lambda k: write(STARTERS[k], k) if k in STARTERS else None)
        solara.Button("Undo", small=True, outlined=True, on_click=undo, disabled=not can_undo,
                      attributes={"title": "back to the text before the last change"})
        with solara.Div(classes=["ttr-upload"]):
            UploadButton(on_file=upload, accept=".kripke,.json,.txt",
                         title=f"read a model file (up to {TEXT_LIMIT:,} bytes)")
        with solara.FileDownload(lambda: text, f"{name}.kripke", mime_type="text/plain"):
            solara.Button("Download", icon_name="mdi-download", small=True, outlined=True,
                          attributes={"title": "save the text as a .kripke file"})
        solara.HTML(tag="span", unsafe_innerHTML=share_html(text, story),
                    style="font-size:13px")
    if name in STARTERS and source(text):
        solara.HTML(tag="div", unsafe_innerHTML=f"Source: {escape(source(text))}",
                    attributes={"data-testid": "model-source"},
                    style="font-size:12px;opacity:.8")
    solara.Style(".ttr-model-text textarea { font-family:monospace; font-size:13px; "
                 "line-height:1.35 !important; } "
                 ".ttr-drop .solara-file-drop { height:auto !important; min-height:0; "
                 "padding:6px 10px !important; font-size:13px; }")
    with solara.Div(classes=["ttr-model-text"]):
        solara.InputTextArea("The model (read as you type)", value=text, on_value=write,
                             continuous_update=True, rows=11, auto_grow=False)
    if reading.error:
        solara.HTML(tag="div", unsafe_innerHTML=error_html(text, reading))
        if reading.model is None:
            solara.Text("The picture shows the last model that read.",
                        style="font-size:12px;opacity:.75")
    else:
        assert reading.model is not None
        solara.HTML(tag="div", unsafe_innerHTML=(
            f"<span data-testid='model-ok' style='color:#2e7d32'>Reads: "
            f"{counted(reading.model.n_worlds, 'world')}, agents "
            f"{escape(' '.join(map(str, reading.model.agents)))}.</span>"),
            style="font-size:13px")
    with solara.Div(classes=["ttr-drop"]):
        solara.FileDrop(label="Or drop a model file here (.kripke, or the model JSON the "
                              "page saves)", on_file=upload, lazy=True)
    if said.value:
        solara.HTML(tag="div", unsafe_innerHTML=escape(said.value),
                    attributes={"data-testid": "upload-result"}, style="font-size:13px")
    solara.HTML(tag="div", unsafe_innerHTML=(
        "Format: <code>agents: a b</code> · <code>world w1: p q</code> (the atoms true there) · "
        "<code>a: {w1 w2} {w3}</code> (what a cannot tell apart) or <code>a observes: p</code> "
        "or arrows, a belief: <code>a: w1 -&gt; w2 w3</code> (from w1, a considers w2 and w3 "
        "possible; one line per world) "
        "· <code>actual: w1</code> · <code>#</code> comments."),
        style="font-size:12px;opacity:.75;margin-top:4px")


def minimised_text(model: Drawn) -> tuple[str, bool, str | None]:
    """What bisimulation contraction would do to the model, in words ("12 worlds; 6 up to
    bisimulation"), whether it has fewer worlds, and the text of the smaller model (None when
    no two worlds are bisimilar, or the smaller model cannot be written)."""
    if not model.capabilities.minimised:
        return "not minimised: this kind of model cannot be", False, None
    try:
        smaller = model.minimised()
    except ValueError as e:  # past the contraction's bound (kripke.explicit.belief)
        return f"not minimised: {e}", False, None
    n, m = model.n_worlds, smaller.n_worlds
    said = f"{counted(n, 'world')}; {m:,} up to bisimulation"
    if m == n:
        return said + " (no two are bisimilar: some formula tells any two apart)", False, None
    try:
        return said, True, dump_model(smaller)
    except ValueError as e:  # a name the format cannot write
        return f"{said} (cannot write it: {e})", True, None


@solara.component
def Minimise(shown: Shown, current: bool, write: Callable[[str], None]):
    """The size up to bisimulation of the model at the moment shown, and a button that
    contracts it (one world per class of worlds no formula tells apart), as ``ttr-kripke
    model --minimise`` does at any step: at the start it replaces the text by the contracted
    model (Undo comes back; only while the text reads), after an announcement or event it is
    a moment of its own (Back comes back)."""
    moment = shown.moment
    said, fewer, smaller = solara.use_memo(lambda: minimised_text(moment.model),
                                           [moment.model])
    start = shown.at == 0

    def minimise() -> None:
        if start and smaller is not None:
            write(smaller)
        elif not start:
            shown.then(minimised(moment))

    with solara.Row(gap="8px", style="align-items:center;flex-wrap:wrap;margin-top:4px"):
        solara.HTML(tag="span", unsafe_innerHTML=escape(said),
                    attributes={"data-testid": "bisimulation"}, style="font-size:13px")
        solara.Button("Minimise", small=True, outlined=True, on_click=minimise,
                      disabled=(smaller is None or not current) if start else not fewer,
                      attributes={"title": "keep one world of each class of bisimilar "
                                  "worlds: every formula keeps its value" + (
                                      " (the text is rewritten)" if start else
                                      " (a moment of its own)")})


@solara.component
def EditPanel(model: Drawn, current: bool, write: Callable[..., None]):
    """Edits on the picture's model, acting on the selected worlds; each writes the text
    again. Offered for models of up to ``EDIT_LIMIT`` worlds, and only while the text reads
    (else an edit would throw the typing away). An S5 model's agents join and split worlds;
    a belief model's get and lose arrows."""
    selected: solara.Reactive[list[str]] = solara.use_reactive([])
    atom = solara.use_reactive("")
    agent = solara.use_reactive("")
    ends: solara.Reactive[tuple[str, str]] = solara.use_reactive(("", ""))  # an arrow's
    said = solara.use_reactive("")
    if model.n_worlds > EDIT_LIMIT:
        solara.Text(f"Edit the text: clicking edits models of up to {EDIT_LIMIT} worlds.",
                    style="font-size:12px;opacity:.75")
        return
    draft: Draft | BeliefDraft = Draft.of(cast(Partitioned, model)) if partitioned(model) \
        else BeliefDraft.of(model)
    chosen = [w for w in selected.value if w in draft.names]
    atoms, agents = list(draft.atoms), list(draft.agents)
    the_atom = atom.value if atom.value in atoms else (atoms[0] if atoms else "")
    the_agent = agent.value if agent.value in agents else agents[0]

    def apply(edit: Callable[[Any], Draft | BeliefDraft], keep: list[str] | None = None
              ) -> None:
        try:
            new = edit(draft)
        except ValueError as e:
            said.set(str(e))
            return
        said.set("")
        selected.set(keep if keep is not None else chosen)
        write(new.text())

    def added() -> None:
        new = draft.add_world()
        apply(lambda d: new, [new.names[-1]])

    need = not current or not chosen
    with solara.Column(gap="4px", style="margin-top:8px"):
        solara.HTML(tag="div", unsafe_innerHTML="<b>Edit on the picture</b> (select worlds, "
                    "then act; the text is rewritten)", style="font-size:13px")
        with solara.Row(gap="6px", style="align-items:center;flex-wrap:wrap"):
            solara.ToggleButtonsMultiple(
                value=chosen, on_value=selected.set, dense=True, classes=["ttr-select"],
                children=[solara.Button(n, value=n, text=True, style="text-transform:none")
                          for n in draft.names])
            solara.Button("+ world", small=True, outlined=True, on_click=added,
                          disabled=not current)
            solara.Button("remove", small=True, outlined=True, disabled=need,
                          on_click=lambda: apply(lambda d: d.remove(chosen), []))
            solara.Button("make actual", small=True, outlined=True,
                          disabled=not current or len(chosen) != 1,
                          on_click=lambda: apply(lambda d: d.make_actual(chosen[0])))
        with solara.Row(gap="6px", style="align-items:center;flex-wrap:wrap"):
            if atoms:
                solara.Select("Atom", value=the_atom, values=atoms, on_value=atom.set,
                              dense=True, style="max-width:120px")
                solara.Button("toggle", small=True, outlined=True, disabled=need,
                              on_click=lambda: apply(lambda d: d.toggle(the_atom, chosen)),
                              attributes={"title": "the atom true ⇄ false in the selected "
                                          "worlds"})
            solara.Select("Agent", value=the_agent, values=agents, on_value=agent.set,
                          dense=True, style="max-width:120px")
            if isinstance(draft, Draft):
                solara.Button("join", small=True, outlined=True,
                              disabled=not current or len(chosen) < 2,
                              on_click=lambda: apply(lambda d: d.join(the_agent, chosen)),
                              attributes={"title": "the agent can no longer tell the "
                                          "selected worlds apart"})
                solara.Button("split off", small=True, outlined=True, disabled=need,
                              on_click=lambda: apply(lambda d: d.split(the_agent, chosen)),
                              attributes={"title": "the agent tells the selected worlds from "
                                          "the rest of their classes"})
        if isinstance(draft, BeliefDraft):
            ArrowEdits(draft, the_agent, ends, current, apply)
        if not current:
            solara.Text("Fix the text first: edits act on a model that reads.",
                        style="font-size:12px;opacity:.75")
        if said.value:
            solara.HTML(tag="div", unsafe_innerHTML=escape(said.value),
                        attributes={"data-testid": "edit-result"},
                        style="font-size:13px;color:#c62828")


@solara.component
def ArrowEdits(draft: BeliefDraft, agent: str, ends: solara.Reactive[tuple[str, str]],
               current: bool, apply: Callable[[Callable[[Any], BeliefDraft]], None]):
    """A belief model's arrow edits: from one world to another (or itself, a loop), the
    agent in the Agent box gets an arrow or loses one."""
    names = list(draft.names)
    source = ends.value[0] if ends.value[0] in names else names[0]
    target = ends.value[1] if ends.value[1] in names else names[0]
    with solara.Row(gap="6px", style="align-items:center;flex-wrap:wrap"):
        solara.Select("from", value=source, values=names, dense=True, style="max-width:110px",
                      on_value=lambda w: ends.set((w, target)))
        solara.Select("to", value=target, values=names, dense=True, style="max-width:110px",
                      on_value=lambda w: ends.set((source, w)))
        solara.Button("add arrow", small=True, outlined=True, disabled=not current,
                      on_click=lambda: apply(lambda d: d.add_arrow(agent, source, target)),
                      attributes={"title": f"from the first world, {agent} considers the "
                                  "second possible"})
        solara.Button("remove arrow", small=True, outlined=True, disabled=not current,
                      on_click=lambda: apply(lambda d: d.remove_arrow(agent, source, target)),
                      attributes={"title": f"{agent} no longer considers the second world "
                                  "possible from the first"})
