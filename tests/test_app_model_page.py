"""The "Your model" page without a browser: type a model and see it drawn, a mistake under
its line, announce and step back, edit on the picture, upload, undo, share; the graph switch of
the puzzle gallery; the pure edits behind the page."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import quote

import ipyvuetify as v
import pytest
import solara
from test_app_teaching import choose_puzzle, press, puzzle_counts, render_puzzles, type_formula
from test_app_widgets import (
    attributes,
    close_pages,  # noqa: F401 (autouse: pages closed after each test)
    html,
    text,
)

from app.web.components.events import TEXT_LABEL
from app.web.components.model_page import (
    SHARE_LIMIT,
    STARTERS,
    TEXT_LIMIT,
    ModelPage,
    read_link,
    read_model,
    uploaded_text,
)
from app.web.components.puzzles import PuzzlePage
from app.web.model_edits import Draft
from kripke import load_model
from kripke.events.model import EventModel
from kripke.explicit.belief import BeliefModel
from kripke.files.exchange import to_json
from kripke.files.modelfile import parse_model
from kripke.puzzles.gallery import Puzzle, Step

SQUARE = """agents: a b
world w1: p q
world w2: p
world w3: q
world w4:
a: {w1 w2} {w3 w4}
b: {w1 w3} {w2 w4}
actual: w1
"""


def render_model(search: str | None = None):
    _box, rc = solara.render(ModelPage(search=search), handle_error=False)
    return rc


def model_text(rc):
    return rc.find(v.Textarea, label="The model (read as you type)").widget


def type_model(rc, source: str) -> None:
    model_text(rc).v_model = source


def show_graph(rc) -> None:
    rc.find(v.BtnToggle, class_="ttr-kind").widget.v_model = 1


def show_classes(rc) -> None:
    rc.find(v.BtnToggle, class_="ttr-kind").widget.v_model = 0


def node_labels(rc) -> list[str]:
    return re.findall(r'<text class="node"[^>]*>([^<]*)</text>', html(rc, "worlds-graph"))


def test_a_starter_model_is_drawn_and_a_typed_model_replaces_it():
    rc = render_model()
    assert model_text(rc).v_model == STARTERS["alice-bob"]
    assert puzzle_counts(rc) == 4
    type_model(rc, SQUARE.replace("world w4:\n", "world w4:\nworld w5: p\n"))
    assert puzzle_counts(rc) == 5
    assert "Reads: 5 worlds" in text(rc, "model-ok")
    show_graph(rc)
    assert sorted(node_labels(rc)) == ["w1", "w2", "w3", "w4", "w5"]
    assert "drawn as a graph" in text(rc, "worlds-caption")


def test_a_mistake_is_shown_under_its_line_and_the_picture_keeps_the_last_model():
    rc = render_model()
    type_model(rc, SQUARE)
    before = html(rc, "worlds-graph")
    broken = SQUARE.replace("actual: w1", "actual: w9")
    type_model(rc, broken)
    error = html(rc, "model-error")
    assert "data-line='8'" in error
    lines = text(rc, "model-error").split("\n")
    assert lines[0] == "line 8:" and lines[1] == "actual: w9"
    assert lines[2].index("^") == lines[1].index("w9")  # the caret under the column named
    assert "not among the worlds" in lines[3]
    assert html(rc, "worlds-graph") == before and puzzle_counts(rc) == 4
    type_model(rc, SQUARE)
    assert "Reads: 4 worlds" in text(rc, "model-ok")


@pytest.mark.parametrize("bad", ["", "}{", "{", "{\"format\": 1}", "agents: a\n" * 3,
                                 "world : :\n", "\x00\x01", "agents: a b\na: {w1\n",
                                 "x" * (TEXT_LIMIT + 1), "/etc/passwd", "alice-bob.kripke"])
def test_bad_text_is_refused_inline_without_an_exception(bad):
    reading = read_model(bad)
    assert reading.model is None and reading.error
    rc = render_model()
    type_model(rc, bad)
    assert text(rc, "model-error")
    assert puzzle_counts(rc) == 4  # the starter model stays drawn


def test_announce_why_and_step_back_work_as_for_a_puzzle():
    rc = render_model()
    type_model(rc, SQUARE)
    type_formula(rc, "K_a p")
    assert "true" in text(rc, "formula-result")
    press(rc, "Announce")
    assert puzzle_counts(rc) == 2 and "You announced" in text(rc, "announce-result")
    press(rc, "Why?")
    assert "a considers 2 worlds possible" in text(rc, "why")
    type_formula(rc, "K_a q")
    assert "false" in text(rc, "formula-result")
    assert "q fails in the world “w2: p”" in text(rc, "why")  # cited by its name and atoms
    type_formula(rc, "q")
    press(rc, "◀ Back")
    assert puzzle_counts(rc) == 4
    press(rc, "Step ▶")
    assert puzzle_counts(rc) == 2


def test_why_explains_a_belief_model_written_by_hand():
    """A model with arrows (Sally and Anne, as the starter writes it) gets Why? too, its
    worlds cited by their names and Anne's arrow back to the box world given for C."""
    rc = render_model()
    type_model(rc, load_text("sally-anne.kripke"))
    type_formula(rc, "B_sally basket")
    press(rc, "Why?")
    assert "B_sally basket is true: sally considers 1 world possible (“basket”), and basket " \
        "holds in every one of them" in text(rc, "why")
    type_formula(rc, "C_{sally,anne} basket")
    assert "C_{sally,anne} basket is false: from here, anne considers possible this very " \
        "world, and basket fails there" in text(rc, "why")


def load_text(starter: str) -> str:
    with open(f"kripke/models/{starter}", encoding="utf-8") as file:
        return file.read()


def test_removed_worlds_fade_where_they_stood_in_the_graph():
    rc = render_model()
    type_model(rc, SQUARE)
    show_graph(rc)
    first = re.findall(r'data-world="(\d+)"[^>]*><title>[^<]*</title><circle class="base" '
                       r'cx="([\d.]+)" cy="([\d.]+)"', html(rc, "worlds-graph"))
    type_formula(rc, "p")
    press(rc, "Announce")
    after = html(rc, "worlds-graph")
    assert after.count('class="going"') == 2
    for world, x, y in first:
        assert f'cx="{x}" cy="{y}"' in after, world


def test_edits_on_the_picture_rewrite_the_text():
    rc = render_model()
    type_model(rc, SQUARE)
    selector = rc.find(v.BtnToggle, class_="ttr-select").widget
    press(rc, "+ world")
    assert puzzle_counts(rc) == 5
    written = parse_model(model_text(rc).v_model)
    assert written.world_name(4) == "w5"
    selector = rc.find(v.BtnToggle, class_="ttr-select").widget
    selector.v_model = [1, 4]  # w2 and w5
    rc.find(v.Btn, children=["join"]).widget.click()  # for agent a
    joined = parse_model(model_text(rc).v_model)
    assert joined.observation("a")[1] == joined.observation("a")[4]
    rc.find(v.Btn, children=["toggle"]).widget.click()  # p in w2 and w5
    toggled = parse_model(model_text(rc).v_model)
    assert [bool(x) for x in toggled.atom_values("p")] == [True, False, False, False, True]
    rc.find(v.BtnToggle, class_="ttr-select").widget.v_model = [4]
    press(rc, "make actual")
    assert "actual: w5" in model_text(rc).v_model
    press(rc, "split off")
    split = parse_model(model_text(rc).v_model)
    assert list(split.observation("a")).count(split.observation("a")[4]) == 1
    press(rc, "Undo")
    assert "actual: w5" in model_text(rc).v_model
    assert parse_model(model_text(rc).v_model).observation("a")[1] == \
        parse_model(model_text(rc).v_model).observation("a")[4]


def test_an_upload_is_read_as_text_and_a_binary_or_huge_file_is_refused():
    # (the drop itself is driven in the browser test)
    uploaded, said = uploaded_text("cards.kripke", STARTERS["three-cards"].encode())
    assert uploaded == STARTERS["three-cards"] and said == "Read cards.kripke."
    assert uploaded_text("x.png", b"\x89PNG\xff\xfe")[0] is None
    refused, said = uploaded_text("big.kripke", b"#" * (TEXT_LIMIT + 1))
    assert refused is None and "reads up to" in said


def test_the_page_reads_the_json_it_saves():
    saved = json.dumps(to_json(parse_model(SQUARE)))
    reading = read_model(saved)
    assert reading.model is not None and reading.model.n_worlds == 4
    assert load_model(saved).world_label(0) == "w1"


def test_a_share_link_carries_the_text_and_opens_it():
    assert read_link("model=" + quote(SQUARE)).text == SQUARE
    assert read_link("model=" + "x" * (SHARE_LIMIT + 1)).text is None
    rc = render_model("model=" + quote(SQUARE.replace("actual: w1", "actual: w2")))
    assert "actual: w2" in model_text(rc).v_model
    assert puzzle_counts(rc) == 4
    link = html(rc, "share-link")
    assert "/model?model=" in link
    rc2 = render_model("model=" + quote("agents: nonsense"))
    assert text(rc2, "model-error")


def test_the_graph_view_is_remembered_per_puzzle():
    rc = render_puzzles()
    choose_puzzle(rc, "cheryl")
    show_graph(rc)
    assert "drawn as a graph" in text(rc, "worlds-caption")
    assert "July 16" in node_labels(rc)
    choose_puzzle(rc, "muddy")
    assert "drawn as a graph" not in text(rc, "worlds-caption")
    choose_puzzle(rc, "cheryl")
    assert "drawn as a graph" in text(rc, "worlds-caption")
    press(rc, "Step ▶")
    assert "drawn as a graph" in text(rc, "worlds-caption")


def test_sum_and_product_offers_the_graph_only_once_small_enough():
    rc = render_puzzles()
    choose_puzzle(rc, "sum-product")
    graph = rc.find(v.Btn, children=["graph"]).widget
    assert graph.disabled
    for _ in range(3):
        press(rc, "Step ▶")
    assert not rc.find(v.Btn, children=["graph"]).widget.disabled


def test_draft_edits_are_pure_and_checked():
    draft = Draft.of(parse_model(SQUARE))
    assert Draft.of(parse_model(draft.text())) == draft  # written and read back: the same
    with pytest.raises(ValueError, match="actual world"):
        draft.remove(["w1"])
    with pytest.raises(ValueError, match="no atom"):
        draft.toggle("r", ["w1"])
    with pytest.raises(ValueError, match="no world"):
        draft.join("a", ["w9"])
    smaller = draft.remove(["w4"])
    assert smaller.names == ("w1", "w2", "w3") and parse_model(smaller.text()).n_worlds == 3


def test_an_event_on_your_model_updates_it_and_says_what_each_agent_observed():
    rc = render_model()
    type_model(rc, SQUARE)
    type_formula(rc, "p")
    show_classes(rc)
    before = html(rc, "worlds-graph")
    press(rc, "Event ▸")
    rc.find(v.Select, label="who learns").widget.v_model = "b"
    press(rc, "Apply")  # b learns whether p; a sees b learn, not what
    said = text(rc, "announce-result")
    assert "learns:b:p" in said and "4 → 4 worlds" in said
    assert "a: could not tell yes from no" in said and "b: saw yes" in said
    assert "learns:b:p" in text(rc, "puzzle-status")  # the timeline's moment
    # the picture by classes is laid out anew: b's classes are finer than at the start
    rows = 'class="axis" x="[\\d.]+" y="[\\d.]+" text-anchor="end"'  # one label per row
    assert len(re.findall(rows, before)) == 2
    assert len(re.findall(rows, html(rc, "worlds-graph"))) == 4
    type_formula(rc, "K_b p & C (K_b p | K_b ~p)")
    assert "true" in text(rc, "formula-result")
    show_graph(rc)  # no world split: each keeps its name and place
    assert sorted(node_labels(rc)) == ["w1", "w2", "w3", "w4"]
    edges = re.findall(r'<text class="edge"[^>]*>([^<]*)</text>', html(rc, "worlds-graph"))
    assert sorted(edges) == ["a", "a"]  # b now tells every world apart: no b edge is left
    press(rc, "◀ Back")
    type_formula(rc, "K_b p")
    assert "false" in text(rc, "formula-result")


@pytest.mark.parametrize("key", ["cards", "letter"])
def test_the_graph_follows_the_event_puzzles_whose_worlds_are_new(key):
    rc = render_puzzles()
    choose_puzzle(rc, key)
    show_graph(rc)
    while not rc.find(v.Btn, children=["Step ▶"]).widget.disabled:
        press(rc, "Step ▶")
        drawn = int(re.search(r'data-drawn-worlds="(\d+)"', html(rc, "worlds-graph")).group(1))
        assert drawn == puzzle_counts(rc)  # every world of the updated model is a node
        assert len(node_labels(rc)) >= drawn


# --- belief models on the page ------------------------------------------------------------------

def test_a_belief_model_is_drawn_with_arrows_and_no_class_view_and_announces():
    rc = render_model()
    type_model(rc, STARTERS["sally-anne"])
    assert puzzle_counts(rc) == 2
    svg = html(rc, "worlds-graph")  # drawn as a graph at once: it has no classes
    assert sorted(node_labels(rc)) == ["basket", "box"]
    assert 'data-head-of="sally"' in svg and 'data-loop="1"' in svg
    caption = text(rc, "worlds-caption")
    assert "drawn for sally, not reflexive; left out for anne, as textbooks do" in caption
    assert "Frame class KD45 (sally KD45, anne S5)" in caption
    classes = rc.find(v.Btn, children=["classes"]).widget
    assert classes.disabled
    type_formula(rc, "K_sally basket & ~basket")
    assert text(rc, "formula-result").startswith("true")
    type_formula(rc, "K_anne box")
    press(rc, "Announce")
    assert puzzle_counts(rc) == 1  # the basket world is gone; sally now believes anything


def test_minimise_replaces_the_text_by_the_model_up_to_bisimulation():
    rc = render_model()
    # w5 is w2 again: the same atom, in the same classes of a and b
    type_model(rc, SQUARE.replace("world w4:\n", "world w4:\nworld w5: p\n")
               .replace("{w1 w2}", "{w1 w2 w5}").replace("{w2 w4}", "{w2 w4 w5}"))
    said = text(rc, "bisimulation")
    assert said.startswith("5 worlds; 4 up to bisimulation"), said
    press(rc, "Minimise")
    assert puzzle_counts(rc) == 4
    assert "Reads: 4 worlds" in text(rc, "model-ok")
    assert "no two are bisimilar" in text(rc, "bisimulation")
    press(rc, "Undo")
    assert puzzle_counts(rc) == 5


def test_a_belief_model_too_big_for_the_graph_is_said_so_not_drawn_by_classes():
    worlds = "".join(f"world w{i}: {'p' if i % 2 else ''}\n" for i in range(45))
    arrows = "".join(f"a: w{i} -> w0\n" for i in range(45))
    rc = render_model()
    type_model(rc, f"agents: a\n{worlds}{arrows}actual: w1\n")
    assert puzzle_counts(rc) == 45
    assert "no classes to summarise" in text(rc, "worlds-caption")
    type_formula(rc, "K_a ~p")
    assert text(rc, "formula-result").startswith("true")  # a believes ~p, wrongly


def test_a_gallery_puzzle_told_on_a_belief_model_steps_and_draws_its_arrows():
    """A story whose step is an event with arrows and assignments (the marble moved while
    Sally is out), as the gallery's belief puzzles tell theirs: the page steps it and draws the
    result as a textbook does, whatever the gallery holds."""
    start = BeliefModel.of([{"basket"}, {"box"}],
                           {"sally": [(0, 0), (1, 1)], "anne": [(0, 0), (1, 1)]}, actual=0,
                           names=["basket", "box"])
    move = EventModel.of({"move": "basket", "skip": "true"}, {"anne": [["move"], ["skip"]]},
                         actual="move", arrows={"sally": [("move", "skip"), ("skip", "skip")]},
                         post={"move": {"basket": "false", "box": "true"}})
    puzzle = Puzzle("sally", "Sally and Anne", "Sally leaves; Anne moves the marble.", start,
                    (Step("Anne", "moves the marble to the box", event=move),),
                    {"sally": "Sally", "anne": "Anne"},
                    lambda m, i: m.world_name(i), ("K_sally basket & ~basket",), "")
    _box, rc = solara.render(PuzzlePage(given=puzzle), handle_error=False)
    assert puzzle_counts(rc) == 2
    press(rc, "Step ▶")
    assert puzzle_counts(rc) == 3
    svg = html(rc, "worlds-graph")
    assert 'data-head-of="sally"' in svg and 'data-head-of="anne"' not in svg
    type_formula(rc, "K_sally basket & ~basket & K_anne ~K_sally box")
    assert text(rc, "formula-result").startswith("true")


def download_names(rc) -> list[str]:
    from solara.components.file_download import FileDownloadWidget

    return [w.filename for w in rc.find(FileDownloadWidget).widgets]


def test_a_typed_model_is_saved_under_its_own_name_not_the_starter_s():
    """Issue 38, item 4: after typing one's own model the files were named after alice-bob."""
    rc = render_model()
    assert "alice-bob.kripke" in download_names(rc)
    type_model(rc, SQUARE)
    names = download_names(rc)
    assert "my-model.kripke" in names and "my-model-moment0-model.tex" in names
    assert not any("alice-bob" in n or ":" in n for n in names)
    type_model(rc, STARTERS["alice-bob"])  # the starter again: its name again
    assert "alice-bob.kripke" in download_names(rc)


def test_the_page_s_json_reads_back_with_the_world_names_as_they_were():
    """Issue 38, item 5: the page wrote "012: a0 b1 c2" as the label, which came back as the
    world's name ("actual world: 012: a0 b1 c2: a0 b1 c2")."""
    from app.web.components.exports import listed, model_json
    from app.web.components.model_page import as_puzzle
    from app.web.components.puzzles import plain_name
    from kripke.puzzles.gallery import cards

    named = as_puzzle(parse_model(SQUARE), "square")
    back = load_model(model_json(listed(named.model), plain_name(named)))
    assert [named.describe(back, i) for i in range(4)] == \
        [named.describe(named.model, i) for i in range(4)] == \
        ["w1: p q", "w2: p", "w3: q", "w4: no atom true"]
    three = cards()  # a puzzle's worlds come back under its short names
    back = load_model(model_json(listed(three.model), plain_name(three)))
    assert named.describe(back, back.actual) == "012: a0 b1 c2"


def test_a_small_model_opens_as_the_graph_and_its_classes_say_what_an_agent_sees():
    """Issue 38, item 6: the letter opened as one tiny box labelled #0, its worlds unnamed;
    a model written by hand was described in the game's words ("what a holds")."""
    rc = render_puzzles()
    choose_puzzle(rc, "letter")
    assert "drawn as a graph" in text(rc, "worlds-caption")
    assert sorted(node_labels(rc)) == ["p", "¬p"]
    show_classes(rc)
    picture = html(rc, "worlds-graph")
    assert "#0" not in picture and "what Alice sees" in picture
    assert ">p ¬p<" in picture or ">p<" in picture  # the box is named by its worlds
    rc = render_model()
    show_classes(rc)
    picture = html(rc, "worlds-graph")
    assert "what alice sees" in picture and "what alice holds" not in picture


def test_at_least_eight_textbook_starters_each_naming_its_source():
    """Issue 38: more starters on /model, each with its source named; a starter is one file."""
    from app.web.components.model_page import source

    assert len(STARTERS) >= 8
    for key, starter in STARTERS.items():
        assert read_model(starter).model is not None, key
        assert len(source(starter)) > 20, key
    assert "Reasoning About Knowledge" in source(STARTERS["rak-figure-2-1"])
    rc = render_model()
    rc.find(v.Select, label="Start from").widget.v_model = "cheryl"
    assert puzzle_counts(rc) == 10
    assert "Math Olympiad" in text(rc, "model-source")


def test_the_formula_bar_says_where_a_formula_holds_and_whether_it_is_valid():
    """Issue 38, as SMCDEL's page offers: the worlds where a formula holds, by name, and
    whether it is valid on the model."""
    rc = render_model()
    type_model(rc, SQUARE)
    type_formula(rc, "p & ~K_b q")
    assert text(rc, "where-true").endswith("True in: w2.")
    assert "Valid" not in text(rc, "formula-result")
    type_formula(rc, "K_a p | K_a ~p")
    assert "holds in 4 of 4 worlds" in text(rc, "valid") and \
        "Valid on this model." in text(rc, "valid")
    assert "True in:" not in text(rc, "valid")  # all of them: no list


def downloaded(rc, suffix: str) -> str:
    """The file a download button makes, as the browser would get it when pressed."""
    from solara.components.file_download import FileDownloadWidget
    from test_app_teaching import wait_for

    widget = next(w for w in rc.find(FileDownloadWidget).widgets if w.filename.endswith(suffix))
    widget.request_download = True
    wait_for(lambda: widget.bytes is not None)
    return bytes(widget.bytes).decode()


def test_a_plain_picture_is_saved_beside_the_one_with_the_teaching_marks():
    """Issue 38: an export without Why?'s rings and the verdict's fill, for a slide."""
    from test_app_teaching import why_text

    rc = render_model()
    type_model(rc, SQUARE)
    show_graph(rc)
    type_formula(rc, "K_a q")  # false: Why? rings the world where q fails
    assert "K_a q" in why_text(rc)
    assert '<circle class="hl"' in html(rc, "worlds-graph")  # on the page
    marked, plain = downloaded(rc, "-worlds.svg"), downloaded(rc, "-plain.svg")
    assert '<circle class="hl"' in marked and "node fails" in marked  # rings, fill
    assert '<circle class="hl"' not in plain
    assert not re.search(r'<g class="w node (holds|fails)', plain)
    assert len(re.findall(r'<text class="node"', plain)) == 4  # the same worlds, named


def test_why_writes_formulas_as_a_textbook_does_and_the_box_takes_its_symbols():
    """Issue 38: Why? steps in the textbook's notation (¬ ∧ →), the input taking them too."""
    from test_app_teaching import why_text

    rc = render_model()
    type_model(rc, SQUARE)
    type_formula(rc, "¬K_b p ∧ (p → K_a p)")
    assert "true" in text(rc, "formula-result")
    steps = why_text(rc)
    assert "¬K_b p ∧ (p → K_a p) is true" in steps and "~" not in steps and "&" not in steps


def test_the_page_s_tikz_names_a_puzzle_s_worlds_as_its_graph_does():
    """The slide's names are the graph's short ones: "Anne 0, Bill 1, Cath 2" under each of
    twelve worlds overlapped at a slide's width."""
    rc = render_puzzles()
    choose_puzzle(rc, "cards")
    tikz = downloaded(rc, "-model.tex")
    assert ") {012};" in tikz and "Anne 0, Bill 1" not in tikz


def test_the_caption_warns_as_the_command_line_does_and_names_every_frame_class(capsys):
    """Issue 43, item 6: the command line warns of a world an agent has no arrow from; the
    page said only "Frame class K", and its caption said loops were drawn for an agent with
    no arrow at all; an S5 model never said S5."""
    from app.cli.main import main

    rc = render_model()
    type_model(rc, SQUARE)
    assert "Frame class S5" in text(rc, "worlds-caption")  # the graph
    show_classes(rc)
    assert "Frame class S5" in text(rc, "worlds-caption")  # and the classes
    type_model(rc, STARTERS["sally-anne"])
    assert "Frame class KD45" in text(rc, "worlds-caption")
    assert "Frame class S5" not in text(rc, "worlds-caption")
    assert "not serial" not in text(rc, "worlds-caption")  # every world has an arrow
    type_formula(rc, "box")
    press(rc, "Announce")  # sally's only arrow from box led to the basket, now gone
    caption = unescape(text(rc, "worlds-caption"))
    assert main(["model", "kripke/models/sally-anne.kripke", "--announce", "box"]) == 0
    warned = [line.removeprefix("# warning: ") for line in capsys.readouterr().out.splitlines()
              if line.startswith("# warning:")]
    assert warned == ["sally has no arrow from box, so sally's relation is not serial: there "
                      "sally believes everything, false too"]
    assert warned[0] + "." in caption and "data-testid='dead-ends'" in html(rc, "worlds-caption")
    # loops: none is left for sally, anne's (reflexive) are left out as textbooks do
    assert "drawn for sally" not in caption and "left out for anne" in caption
    assert "Frame class K (sally K, anne S5)" in caption


# --- a story that travels, Minimise at any moment, belief edits (issue 43, item 7) -------------

# b may have learnt whether q (and did); a cannot tell whether b did
SPLIT = ("event yes: pre q\nevent no: pre ~q\nevent skip: pre true\nb: {yes} {no} {skip}\n"
         "actual: yes")


def share_href(rc) -> str:
    return unescape(re.search(r"href='([^']*)'", html(rc, "share-link")).group(1))


def drawn_names(rc) -> list[str]:
    return sorted(node_labels(rc))


def story_models():
    """The story below made with kripke alone, as the command line makes it."""
    from kripke.files.eventfile import parse_event_model, ready_made

    start = parse_model(SQUARE)
    told = start.announce("p | q")
    looked = told.update(parse_event_model(SPLIT))
    secret = looked.update(ready_made("secret:a:q", looked))
    return [start, told, looked, secret, secret.minimised()]


def test_a_share_link_carries_the_story_and_opens_at_its_last_moment_with_back():
    """Every moment of the story, on the page that made it and on the page the link opens,
    draws and says what the model at that moment is."""
    models = story_models()
    rc = render_model()
    type_model(rc, SQUARE)
    type_formula(rc, "p | q")
    press(rc, "Announce")
    press(rc, "Event ▸")
    rc.find(v.Select, label="event").widget.v_model = "written by hand"
    rc.find(v.Textarea, label=TEXT_LABEL).widget.v_model = SPLIT
    press(rc, "Apply")
    rc.find(v.Select, label="event").widget.v_model = "finds out whether φ in secret"
    type_formula(rc, "q")
    press(rc, "Apply")
    assert text(rc, "bisimulation") == "12 worlds; 5 up to bisimulation"
    press(rc, "Minimise")  # after the events: a moment of its own, the text kept
    assert "moment 4 of 4: minimised (12 → 5 worlds)" in text(rc, "puzzle-status")
    assert "world w4:" in model_text(rc).v_model
    href = share_href(rc)
    assert href.startswith("/model?model=") and "&announce=p%20%7C%20q&event=event%20yes" \
        in href and "&event=secret%3Aa%3Aq&minimise=" in href
    assert "link to this moment (the model and 4 steps)" in text(rc, "share-link")
    opened = render_model(href.removeprefix("/model?"))
    for page in (rc, opened):  # the page that made it, then the one the link opens
        show_graph(page)
        for k in range(4, -1, -1):
            model = models[k]
            assert f"moment {k} of 4" in text(page, "puzzle-status")
            assert puzzle_counts(page) == model.n_worlds
            assert int(attributes(page, "worlds-graph")["data-drawn-worlds"]) == model.n_worlds
            assert drawn_names(page) == sorted(model.world_name(i)
                                               for i in range(model.n_worlds)), k
            frame = model.frame_class()
            assert f"Frame class {frame}" in text(page, "worlds-caption")
            if k:
                press(page, "◀ Back")
    # the opened page's text is the model's, and its link, at moment 0, the model alone
    assert model_text(opened).v_model == SQUARE
    assert "link to this model" in text(opened, "share-link")
    assert share_href(opened) == "/model?model=" + quote(SQUARE)


def test_a_link_s_story_that_cannot_be_made_again_says_so_and_stops_before_it():
    from urllib.parse import urlencode

    search = urlencode([("model", SQUARE), ("announce", "p"), ("announce", "~p")], quote_via=quote)
    rc = render_model(search)
    assert puzzle_counts(rc) == 2 and "moment 1 of 1" in text(rc, "puzzle-status")
    said = unescape(text(rc, "upload-result"))
    assert said.startswith("The link's step 2 (announce '~p') cannot be made again: cannot "
                           "announce ~p: it is false at the actual world")
    many = urlencode([("model", SQUARE)] + [("announce", "p")] * 700, quote_via=quote)
    assert len(SQUARE) + 700 * 2 <= SHARE_LIMIT  # within the bound; past the steps made
    rc = render_model(many)
    assert unescape(text(rc, "upload-result")) == ("The link has 700 steps; the page makes "
                                                   "the first 100 again.")
    assert puzzle_counts(rc) == 2 and "moment 100 of 100" in text(rc, "puzzle-status")
    too_long = urlencode([("model", SQUARE)] + [("announce", "p & q")] * 400, quote_via=quote)
    rc = render_model(too_long)
    size = len(SQUARE) + 400 * 6
    assert unescape(text(rc, "upload-result")).startswith(
        f"The link's model and its 400 steps have {size:,} characters; a link carries up to "
        "2,000, so it may have been cut and is not read.")
    assert model_text(rc).v_model == STARTERS["alice-bob"]


def test_a_story_too_long_for_a_link_is_said_so_with_its_size():
    rc = render_model()
    type_model(rc, SQUARE + "#" * (SHARE_LIMIT - len(SQUARE) - 5))
    assert "link to this model" in text(rc, "share-link")
    type_formula(rc, "p | q")
    press(rc, "Announce")  # 6 more characters: past the bound
    assert text(rc, "share-link") == ("Too long to share by link (2,001 characters; 2,000 at "
                                      "most): download the file instead, or go Back to a "
                                      "moment with fewer steps.")
    press(rc, "◀ Back")  # the link is of the moment shown: the model alone fits
    assert "link to this model" in text(rc, "share-link")


def test_belief_models_are_edited_on_the_picture_by_arrows():
    rc = render_model()
    type_model(rc, STARTERS["sally-anne"])
    assert not rc.find(v.Btn, children=["join"])  # an S5 model's edits are not offered
    rc.find(v.Select, label="Agent").widget.v_model = "sally"
    rc.find(v.Select, label="from").widget.v_model = "box"
    rc.find(v.Select, label="to").widget.v_model = "box"
    press(rc, "add arrow")  # sally now thinks the box possible from the box too
    written = parse_model(model_text(rc).v_model)
    assert sorted(written.arrows("sally")) == [(0, 0), (1, 0), (1, 1)]
    type_formula(rc, "K_sally basket")
    assert text(rc, "formula-result").startswith("false")
    # her relation is reflexive now: her loops are left out, as anne's are
    assert "left out for sally and anne" in text(rc, "worlds-caption")
    press(rc, "add arrow")
    assert "sally already has an arrow from box to box" in text(rc, "edit-result")
    rc.find(v.Select, label="to").widget.v_model = "basket"
    press(rc, "remove arrow")
    press(rc, "Undo")
    press(rc, "Undo")  # back to the starter
    assert model_text(rc).v_model == STARTERS["sally-anne"]
    rc.find(v.Select, label="from").widget.v_model = "box"
    rc.find(v.Select, label="to").widget.v_model = "basket"
    press(rc, "remove arrow")  # sally's only arrow from box: there she believes everything
    assert "sally has no arrow from box" in text(rc, "worlds-caption")
    press(rc, "+ world")  # a new world is possible from itself, for every agent
    grown = parse_model(model_text(rc).v_model)
    assert grown.n_worlds == 3 and (2, 2) in grown.arrows("sally") and \
        (2, 2) in grown.arrows("anne")


def test_belief_drafts_are_pure_and_checked():
    from app.web.model_edits import BeliefDraft

    model = parse_model(STARTERS["sally-anne"])
    draft = BeliefDraft.of(model)
    assert BeliefDraft.of(parse_model(draft.text())) == draft  # written and read back
    with pytest.raises(ValueError, match="no arrow from basket to box"):
        draft.remove_arrow("anne", "basket", "box")
    with pytest.raises(ValueError, match="no agent"):
        draft.add_arrow("bob", "basket", "box")
    smaller = draft.add_world().remove(["basket"])  # sally's arrow to the basket goes with it
    back = parse_model(smaller.text())
    assert back.n_worlds == 2 and back.dead_ends("sally").tolist() == [0]
    assert back.frame_class("anne") == "S5"
