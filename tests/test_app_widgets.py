"""The browser demo without a browser: components rendered with ``solara.render``, and the pure
functions behind them (board SVG, worlds picture, panels, formula box, CLI command)."""

from __future__ import annotations

import json
import re
import time
from html import escape
from itertools import pairwise
from pathlib import Path

import ipyvuetify as v
import numpy as np
import pytest
import solara

import boards
from agents.model import TTRModel
from app.cli.commands import app as app_command
from app.cli.main import build_parser, main
from app.web import app as app_module
from app.web.app import Page
from app.web.components import controls
from app.web.components.board import board_svg
from app.web.components.controls import seed_error
from app.web.components.formula import FormulaResult, examples, first_result, result_html
from app.web.components.game import deals_chart_svg
from app.web.components.panels import (
    hand_html,
    knowledge_html,
    log_html,
    scores_html,
    status_html,
)
from app.web.components.session import (
    DEFAULT_SEED,
    Defaults,
    DemoModel,
    defaults,
    new_model,
    new_session,
    seed_of,
)
from app.web.components.style import player_colour, player_ink
from kripke import parse

#: The pages the running test rendered, closed after it (``close_pages``).
_PAGES: list = []


def render_page():
    """The page as the server shows it: inside an AppLayout, which hosts SolaraViz's sidebar."""
    _box, rc = solara.render(solara.AppLayout(children=[Page()]), handle_error=False)
    _PAGES.append(rc)
    return rc


@pytest.fixture(autouse=True)
def close_pages():
    """Close the pages a test rendered: every page reads Mesa's one ``update_counter``, so a
    page left open re-renders on each later step of every later test (a file's last tests
    ran ten times slower than alone)."""
    yield
    while _PAGES:
        _PAGES.pop().close()


def html(rc, testid: str) -> str:
    """The markup of the one element marked ``data-testid=testid`` (or holding such markup)."""
    found = [w.unsafe_innerHTML for w in rc.find(solara.widgets.HTML).widgets
             if w.attributes.get("data-testid") == testid
             or f"data-testid='{testid}'" in (w.unsafe_innerHTML or "")]
    assert len(found) == 1, f"{len(found)} elements with data-testid={testid}"
    return found[0]


def text(rc, testid: str) -> str:
    """What the element says, without its markup."""
    return re.sub(r"<[^>]+>", "", html(rc, testid))


def attributes(rc, testid: str) -> dict:
    return next(w.attributes for w in rc.find(solara.widgets.HTML).widgets
                if w.attributes.get("data-testid") == testid)


def shown_worlds(rc) -> int:
    return int(re.search(r"status-worlds'>([\d,]+)<", html(rc, "status")).group(1)
               .replace(",", ""))


def click(rc, label: str, wait: bool = True) -> None:
    """Click a button; with ``wait``, until the work it started shows its result."""
    before = html(rc, "status")
    rc.find(v.Btn, children=[label]).widget.click()
    if wait:
        idle(rc, changed_from=before)


def busy(rc) -> bool:
    return any(w.attributes.get("data-testid") == "busy"
               for w in rc.find(solara.widgets.HTML).widgets)


def idle(rc, timeout: float = 60.0, changed_from: str | None = None) -> None:
    """Wait until the worker thread has finished (the progress line is gone) and, if given,
    the status differs from ``changed_from`` (the worker may not have started yet)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not busy(rc) and (changed_from is None or html(rc, "status") != changed_from):
            return
        time.sleep(0.02)
    raise AssertionError("the page stayed busy or unchanged")


def button(rc, label: str):
    return rc.find(v.Btn, children=[label]).widget


def choose(rc, label: str) -> None:
    """Pick a toggle button, as the browser does: by setting its group's index."""
    for toggle in rc.find(v.BtnToggle).widgets:
        labels = [b.children[0] for b in toggle.children]
        if label in labels:
            toggle.v_model = labels.index(label)
            return
    raise AssertionError(f"no toggle button {label!r}")


def played(turns: int, **settings) -> TTRModel:
    model = TTRModel(rng=7, **settings)
    for _ in range(turns):
        model.step()
    return model


# ----- the page --------------------------------------------------------------------------------

def test_stepping_prunes_the_worlds_shown_in_status_log_and_graph():
    rc = render_page()
    assert shown_worlds(rc) == 90
    assert attributes(rc, "worlds-graph")["data-drawn-worlds"] == "90"
    for _ in range(10):
        click(rc, "Step")
        if shown_worlds(rc) < 90:
            break
    after = shown_worlds(rc)
    assert after < 90
    assert "announce (claim)" in html(rc, "event-log")
    assert re.search(r"removed \d+ worlds \(90 → \d+\)", html(rc, "event-log"))
    assert attributes(rc, "worlds-graph")["data-drawn-worlds"] == str(after)


def test_reset_takes_the_sidebar_parameters():
    rc = render_page()
    click(rc, "Step")
    rc.find(v.Select, label="Players").widget.v_model = 2
    click(rc, "Reset")
    assert "Turn 0:" in html(rc, "status")
    assert shown_worlds(rc) == 6  # 2 players × 2 tickets: C(4, 2) deals


def test_changed_settings_say_press_reset_until_reset_applies_them():
    rc = render_page()
    assert not rc.find(solara.widgets.HTML, attributes={"data-testid": "pending"}).widgets
    rc.find(v.Select, label="Tickets each").widget.v_model = 1
    assert "press Reset" in text(rc, "pending")
    assert shown_worlds(rc) == 90  # the game on screen is unchanged
    click(rc, "Reset")
    assert shown_worlds(rc) == 6  # 3 players × 1 ticket
    assert not rc.find(solara.widgets.HTML, attributes={"data-testid": "pending"}).widgets


def test_a_seed_that_is_not_a_number_is_refused_where_it_is_typed():
    rc = render_page()
    seed = rc.find(v.TextField, label="Seed").widget
    seed.v_model = "hello world"
    assert "not a seed" in text(rc, "seed-error")
    assert button(rc, "Reset").disabled
    seed.v_model = "12"
    assert not rc.find(solara.widgets.HTML, attributes={"data-testid": "seed-error"}).widgets
    assert not button(rc, "Reset").disabled
    assert "press Reset" in text(rc, "pending")
    assert seed_error("7") is None and seed_error("-3") and seed_error("1e3")


def test_a_click_while_a_turn_runs_is_ignored_not_queued():
    rc = render_page()
    before = html(rc, "status")
    for _ in range(5):  # as fast as a test can click: the first starts work, the rest land on it
        click(rc, "Step", wait=False)
    idle(rc, changed_from=before)
    turn = int(re.search(r"Turn (\d+)", text(rc, "status")).group(1))
    time.sleep(0.5)
    assert turn == int(re.search(r"Turn (\d+)", text(rc, "status")).group(1)), "a step queued"
    assert 1 <= turn <= 5


def test_controls_are_disabled_with_progress_while_work_runs():
    from app.web.components.controls import ControlBar, Message
    model = new_model(Defaults())
    playing = solara.reactive(False)
    _box, rc = solara.render(ControlBar(model, playing, "Playing turn 1…", lambda kind: None,
                                        True), handle_error=False)
    assert all(button(rc, label).disabled for label in ("Reset", "▶ Play", "Step"))
    _box, rc = solara.render(Message("Playing turn 1…", True, "hello", True),
                             handle_error=False)
    assert "Playing turn 1" in text(rc, "busy")  # the work in progress says so first
    _box, rc = solara.render(ControlBar(model, playing, "", lambda kind: None, True),
                             handle_error=False)
    assert not any(button(rc, label).disabled for label in ("Reset", "▶ Play", "Step"))


def test_the_header_says_one_thing_at_a_time_the_most_urgent_first():
    from app.web.components.controls import message_html
    assert message_html("", True, "hello", True)[1] == "seed-error"
    assert message_html("", True, "8", True)[1] == "pending"
    assert message_html("", False, "8", False)[1] == "over"
    assert "Step: one turn" in message_html("", True, "8", False)[0]


def test_play_runs_to_the_end_then_the_button_is_play_again_and_the_winner_named(monkeypatch):
    monkeypatch.setattr(controls, "PLAY_INTERVAL", 0.0)
    monkeypatch.setattr(app_module, "DEFAULTS", Defaults(trains=4))  # a game of a few turns
    rc = render_page()
    # no look for ❚❚ Pause here: this three-turn game can end before the click returns (the
    # pause test below presses it mid-game)
    click(rc, "▶ Play", wait=False)
    deadline = time.monotonic() + 120
    while busy(rc) or "Game over" not in text(rc, "status"):
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.05)
    assert "Game over" in text(rc, "status")
    assert re.search(r"player \d wins with -?\d+ points|A tie", text(rc, "status"))
    assert button(rc, "▶ Play").disabled and button(rc, "Step").disabled
    assert "every ticket has been revealed" in text(rc, "knowledge")
    assert "?" not in text(rc, "knowledge")


def test_pause_stops_before_the_next_turn():
    rc = render_page()
    click(rc, "▶ Play", wait=False)
    while "Turn 0:" in text(rc, "status"):
        time.sleep(0.02)
    button(rc, "❚❚ Pause").click()
    while busy(rc):
        time.sleep(0.02)
    turn = text(rc, "status")
    time.sleep(1.2)  # more than one play interval
    assert text(rc, "status") == turn
    assert rc.find(v.Btn, children=["▶ Play"]).widgets


def test_a_players_view_hides_what_that_player_cannot_see():
    rc = render_page()
    choose(rc, "player 2")
    assert "player 2's train cards" in text(rc, "hand")
    table = text(rc, "knowledge")
    assert "player 2 knows" in table and "player 0 knows" not in table
    assert "real holder" not in table
    assert "hidden" in text(rc, "scores")
    choose(rc, "Outside view (the real deal)")
    assert "real holder" in text(rc, "knowledge")


def test_formula_box_evaluates_typed_text_and_shows_parse_errors_inline():
    rc = render_page()
    field = next(f for f in rc.find(v.TextField).widgets if f.label.startswith("Formula"))
    field.v_model = "p(0,99"
    field.fire_event("keyup.enter", None)
    error = html(rc, "formula-error")
    assert "line 1, column 7" in error and "^" in error
    example = examples(DemoModel(rng=DEFAULT_SEED))[0]  # p(1,t): player 1 holds ticket t
    field.v_model = example
    field.fire_event("keyup.enter", None)
    assert "true at the actual world; holds in 30 of 90" in text(rc, "formula-result")
    assert html(rc, "worlds-graph").count('class="w holds"') == 30  # filled where it holds


def test_each_page_has_its_own_game():
    first, second = render_page(), render_page()
    click(first, "Step")
    click(first, "Step")
    assert "Turn 2:" in html(first, "status")
    assert "Turn 0:" in html(second, "status")


# ----- board -----------------------------------------------------------------------------------

def test_board_draws_claims_in_owner_colour_and_highlights_the_last_move():
    model = played(3)
    while model.history[-1].claimed is None:  # the last move a claim, to be highlighted
        model.step()
    svg = board_svg(model)
    assert svg.count("data-connection=") == len(model.board.connections)
    claimed = {c: p for c, p in enumerate(model.state.owner) if p is not None}
    assert claimed
    for conn, owner in claimed.items():
        assert re.search(rf'data-connection="{conn}" data-owner="{owner}">.*?'
                         rf'stroke="{player_colour(owner)}"', svg)
    assert f'data-last-move="{model.history[-1].claimed}"' in svg
    ferries = [c for c in model.board.connections if c.ferry]
    assert ferries and f"F{ferries[0].ferry}</text>" in svg


def test_board_rings_the_ticket_cities_of_the_viewing_player():
    model = played(0)
    ringed = board_svg(model, perspective=1).count(f'style="stroke:{player_ink(1)}" '
                                                   'stroke-width="3"')
    cities = {c for t in model.state.tickets[1] for c in (t.a, t.b)}
    assert ringed == len(cities)


# ----- worlds picture: see tests/test_worlds_picture.py ---------------------------------------

# ----- panels and formula box ------------------------------------------------------------------

def test_the_deals_chart_plots_every_turn_the_data_collector_saw():
    model = played(8)
    svg = deals_chart_svg(model)
    counts = model.datacollector.get_model_vars_dataframe()["Worlds"].tolist()
    points = re.findall(
        r'cy="([\d.]+)" r="3"><title>after turn (\d+): ([\d,]+) possible deals', svg)
    assert [(int(t), int(c.replace(",", ""))) for _y, t, c in points] == list(enumerate(counts))
    heights = [float(y) for y, _t, _c in points]
    for (a, b), (ya, yb) in zip(pairwise(counts), pairwise(heights), strict=True):
        assert (ya < yb) == (b < a)  # fewer deals: lower on the chart
    assert "background" not in svg and "#fff" not in svg  # the page's theme colours it


def test_log_shows_each_announcement_as_a_formula_with_the_worlds_it_removed():
    model = played(6)
    log = log_html(model)
    announcements = [a for turn in model.history for a in turn.announcements]
    assert any(a.removed for a in announcements)
    for a in announcements:
        assert escape(a.text) in log
        if a.removed:
            assert f"removed {a.removed:,} world" in log
            assert f"({a.worlds_before:,} → {a.worlds_after:,})" in log


def test_knowledge_table_names_known_holders_and_possible_ones():
    model = played(6)
    table = knowledge_html(model)
    assert table.count("<tr>") == 1 + len(model.state.dealt_tickets)
    assert "mine" in table and "held by" in table and "?" in table
    assert "real holder" in table


def test_hand_names_the_opponent_tickets_the_player_knows():
    model = played(0)
    assert "Knows of its opponents: no ticket yet." in re.sub("<[^>]+>", "", hand_html(model, 0))
    while not model.state.knowledge(0).known_opponent_tickets:
        model.step()
    (opponent, ticket), *_ = sorted(model.state.knowledge(0).known_opponent_tickets)
    text = re.sub("<[^>]+>", "", hand_html(model, 0))
    assert f"player {opponent} holds t{ticket} {model.board.tickets[ticket]}" in text


def test_scores_hide_other_players_unfinished_tickets_in_a_players_view():
    model = played(0)
    mine = str(model.state.tickets[0][0])
    theirs = str(model.state.tickets[1][0])
    view = scores_html(model, perspective=0)
    assert mine in view and theirs not in view and "2 hidden" in view
    assert theirs in scores_html(model)


def test_formula_errors_come_back_as_messages():
    model = played(0)
    assert first_result(model.worlds, "") == FormulaResult("")
    parse_error = first_result(model.worlds, "K_0 (p(1,2)")
    assert isinstance(parse_error, FormulaResult)
    assert parse_error.error and "line 1, column 12" in parse_error.error
    unknown = first_result(model.worlds, "K_7 p(1,2)")
    assert isinstance(unknown, FormulaResult) and unknown.error and "agent" in unknown.error
    assert "formula-error" in result_html(parse_error, model.world_count)
    ok = first_result(model.worlds, examples(model)[1])  # K_0 p(1,t) at the deal: not known
    assert isinstance(ok, FormulaResult) and ok.holds is False
    assert isinstance(ok.values, np.ndarray) and ok.formula == parse(examples(model)[1])


# ----- session and command line ----------------------------------------------------------------

def test_command_line_defaults_reach_the_app_through_the_environment():
    d = Defaults(board="usa", players=4, tickets=3, agents="epistemic,random", seed=11)
    assert defaults(d.environ()) == d
    assert defaults({}) == Defaults()
    session = new_session(Defaults(seed=11))
    assert session.settings == Defaults(seed=11)
    assert session.first_worlds is session.model.worlds  # 90 deals: kept to draw every world


def test_demo_model_deals_fewer_tickets_when_a_game_is_too_big_and_says_so(tmp_path):
    board = json.loads((Path(boards.__file__).parent / "data" / "europe24.json").read_text())
    board["tickets"] = board["tickets"][:8]
    path = tmp_path / "small.json"
    path.write_text(json.dumps(board))
    model = DemoModel(board=str(path), players=4, tickets_each=4)
    assert model.rules.tickets_each == 2
    assert "4 players get 2 tickets each, not 4: Europe 24" in status_html(model, model.notice)
    assert "has only 8." in status_html(model, model.notice)
    assert DemoModel(board=str(path), players=2, tickets_each=4).notice == ""
    too_many = DemoModel(board="usa", players=5, tickets_each=4)  # 20!/(4!^5) deals
    assert too_many.rules.tickets_each == 2 and "more than the model holds" in too_many.notice


def test_demo_model_repeats_agent_kinds_over_the_seats_and_takes_any_seed_text():
    model = DemoModel(players=4, agent_kinds="epistemic,baseline,random", rng="3")
    assert [s.kind for s in model.seats] == ["epistemic", "baseline", "random", "epistemic"]
    assert seed_of("3") == 3 and seed_of("hello") == seed_of("hello") != seed_of("hullo")


def test_app_command_serves_locally_with_no_browser_and_no_phone_home():
    args = build_parser().parse_args(["app"])
    assert (args.host, args.port) == ("127.0.0.1", 8765)
    argv, env = app_command.server_command(args, app_command.defaults_from(args))
    assert argv[argv.index("--host") + 1] == "127.0.0.1"
    assert argv[argv.index("--port") + 1] == "8765"
    assert "--no-open" in argv and "app.web.app" in argv  # the module: its routes are the pages
    assert env["SOLARA_TELEMETRY_MIXPANEL_ENABLE"] == "false"
    assert env["SOLARA_ASSETS_PROXY"] == "true"
    assert env["TTR_KRIPKE_BOARD"] == "europe24"


def test_app_command_rejects_bad_options_before_starting_a_server(monkeypatch, capsys):
    monkeypatch.setattr(app_command.os, "execve", lambda *a: pytest.fail("server started"))
    assert main(["app", "--agents", "clever"]) == 2
    assert "unknown agent kind" in capsys.readouterr().err
    assert main(["app", "--agents", "epistemic,random"]) == 2  # 2 kinds for 3 players
    assert "2 agent kinds given for 3 players" in capsys.readouterr().err
