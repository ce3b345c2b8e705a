"""The browser demo without a browser: components rendered with ``solara.render``, and the pure
functions behind them (board SVG, worlds picture, panels, formula box, CLI command)."""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

import ipyvuetify as v
import numpy as np
import pytest
import solara

import boards
from agents.model import TTRModel
from app.app import Page
from app.cli import build_parser, main
from app.commands import app as app_command
from app.components.board import board_svg
from app.components.formula import evaluate_formula, examples, result_html
from app.components.panels import hand_html, knowledge_html, log_html, scores_html, status_html
from app.components.session import Defaults, DemoModel, defaults, model_params, seed_of
from app.components.style import player_colour
from app.components.worlds import MAX_DRAWN, WorldLayout, select_worlds, worlds_html


def render_page():
    """The page as the server shows it: inside an AppLayout, which hosts SolaraViz's sidebar."""
    _box, rc = solara.render(solara.AppLayout(children=[Page()]), handle_error=False)
    return rc


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


def click(rc, label: str) -> None:
    rc.find(v.Btn, children=[label]).widget.click()


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
    assert "position 6" in error and "^" in error
    example = examples(DemoModel(rng=7))[0]  # p(1,t): player 1 holds ticket t
    field.v_model = example
    field.fire_event("keyup.enter", None)
    assert "true at the actual world; holds in 30 of 90" in text(rc, "formula-result")
    assert "#43a047" in attributes(rc, "worlds-graph")["srcdoc"]  # worlds where it holds


def test_each_page_has_its_own_game():
    first, second = render_page(), render_page()
    click(first, "Step")
    click(first, "Step")
    assert "Turn 2:" in html(first, "status")
    assert "Turn 0:" in html(second, "status")


# ----- board -----------------------------------------------------------------------------------

def test_board_draws_claims_in_owner_colour_and_highlights_the_last_move():
    model = played(3)
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
    ringed = board_svg(model, perspective=1).count(f'stroke="{player_colour(1)}" stroke-width="3"')
    cities = {c for t in model.state.tickets[1] for c in (t.a, t.b)}
    assert ringed == len(cities)


# ----- worlds picture --------------------------------------------------------------------------

def test_worlds_keep_their_positions_and_the_view_its_frame_as_worlds_are_removed():
    model = played(0)
    layout = WorldLayout()
    worlds_html(model, select_worlds(model, None, layout), layout)
    before, box = dict(layout.pos), layout.box()
    while model.world_count == model.initial_worlds:
        model.step()
    page, drawn = worlds_html(model, select_worlds(model, None, layout), layout)
    assert drawn == model.world_count
    assert layout.pos == before and layout.box() == box
    nodes = json.loads(re.search(r"new vis.DataSet\((\[.*?\])\);", page).group(1))
    assert {n["id"]: (n["x"], n["y"]) for n in nodes} == {
        int(w): layout.pixels(int(w)) for w in model.worlds.world_ids}


def test_a_model_too_big_to_draw_shows_one_agents_class_then_a_sample():
    model = TTRModel(rng=7, tickets_each=3)  # 1,680 worlds; each agent's class has 20
    layout = WorldLayout()
    selection = select_worlds(model, 1, layout)
    assert selection.agent == 1 and len(selection.indices) == 20
    assert "1,680 worlds: too many to draw" in selection.caption()
    big = TTRModel(rng=7, players=4, tickets_each=3)  # 369,600 worlds; classes of 1,680
    selection = select_worlds(big, 2, layout)
    assert selection.sampled and len(selection.indices) <= MAX_DRAWN
    assert big.worlds.actual in selection.indices
    _page, drawn = worlds_html(big, selection, layout)
    assert drawn == len(selection.indices)


def test_the_worlds_page_loads_nothing_from_anywhere():
    model = played(0)
    layout = WorldLayout()
    page, _ = worlds_html(model, select_worlds(model, None, layout), layout)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "new vis.Network(" in page and "vis-network" not in re.findall(r"src=\S+", page)


def test_worlds_hover_shows_the_deal_and_marks_the_actual_world():
    model = played(0)
    layout = WorldLayout()
    page, _ = worlds_html(model, select_worlds(model, None, layout), layout)
    nodes = json.loads(re.search(r"new vis.DataSet\((\[.*?\])\);", page).group(1))
    actual = [n for n in nodes if n["shape"] == "star"]
    assert len(actual) == 1 and "(the actual world)" in actual[0]["title"]
    for p, hand in enumerate(model.state.tickets):
        assert f"player {p}: {', '.join(map(str, hand))}" in actual[0]["title"]


# ----- panels and formula box ------------------------------------------------------------------

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
    while not model.knowledge(0).known_opponent_tickets:
        model.step()
    (opponent, ticket), *_ = sorted(model.knowledge(0).known_opponent_tickets)
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
    assert evaluate_formula(model, "").holds is None
    parse_error = evaluate_formula(model, "K_0 (p(1,2)")
    assert parse_error.error and "position" in parse_error.error
    unknown = evaluate_formula(model, "K_7 p(1,2)")
    assert unknown.error and "agent" in unknown.error
    assert "formula-error" in result_html(parse_error, model.world_count)
    ok = evaluate_formula(model, examples(model)[1])  # K_0 p(1,t) at the deal: not known
    assert ok.holds is False and isinstance(ok.values, np.ndarray)


# ----- session and command line ----------------------------------------------------------------

def test_command_line_defaults_reach_the_app_through_the_environment():
    d = Defaults(board="usa", players=4, tickets=3, agents="epistemic,random", seed=11)
    assert defaults(d.environ()) == d
    assert defaults({}) == Defaults()
    params = model_params(d)
    assert params["agent_kinds"]["value"] == "epistemic,random"
    assert "epistemic,random" in params["agent_kinds"]["values"]
    assert params["rng"]["value"] == "11"


def test_demo_model_deals_fewer_tickets_when_a_game_is_too_big_and_says_so(tmp_path):
    board = json.loads((Path(boards.__file__).parent / "data" / "europe24.json").read_text())
    board["tickets"] = board["tickets"][:8]
    path = tmp_path / "small.json"
    path.write_text(json.dumps(board))
    model = DemoModel(board=str(path), players=4, tickets_each=4)
    assert model.rules.tickets_each == 2
    assert "4 players get 2 tickets each, not 4: Europe 24" in status_html(model)
    assert "has only 8." in status_html(model)
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
    assert "--no-open" in argv and "app.app:page" in argv
    assert env["SOLARA_TELEMETRY_MIXPANEL_ENABLE"] == "false"
    assert env["SOLARA_ASSETS_PROXY"] == "true"
    assert env["TTR_KRIPKE_BOARD"] == "europe24"


def test_app_command_rejects_bad_options_before_starting_a_server(monkeypatch, capsys):
    monkeypatch.setattr(app_command.os, "execve", lambda *a: pytest.fail("server started"))
    assert main(["app", "--agents", "clever"]) == 2
    assert "unknown agent kind" in capsys.readouterr().err
    assert main(["app", "--agents", "epistemic,random"]) == 2  # 2 kinds for 3 players
    assert "2 agent kinds given for 3 players" in capsys.readouterr().err
