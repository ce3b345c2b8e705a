"""The possible-worlds picture without a browser: layouts (pure Python) and their SVG."""

from __future__ import annotations

import re
from itertools import combinations
from math import comb

import numpy as np
import pytest

from agents.model import TTRModel
from app.web.components.formula import FormulaResult, first_result
from app.web.components.panels import knowledge_html, status_html
from app.web.components.style import PAGE_CSS, PLAYER_COLOURS, player_colour
from app.web.components.worlds import GameNames, worlds_picture
from app.worlds.layout import (
    FADED,
    FONT,
    GOING,
    GONE,
    HEIGHT,
    LIVE,
    OPEN_LIMIT,
    TILE_LIMIT,
    WIDTH,
    ClassGrid,
    ClassTiles,
    FixedPositions,
    Mark,
    Picture,
    layout_for,
    short,
    text_width,
)
from app.worlds.svg import STYLE, picture_svg
from kripke.interface import Values
from kripke.puzzles.classic import muddy_children


def played(turns: int, rng: int = 7, **settings) -> TTRModel:
    model = TTRModel(rng=rng, **settings)
    for _ in range(turns):
        model.step()
    return model


def until_pruned(model: TTRModel) -> None:
    before = model.world_count
    while model.world_count == before:
        model.step()


def svg(picture: Picture) -> str:
    return picture_svg(picture, lambda a: player_colour(int(a)))


def boxes(picture: Picture) -> list[tuple[float, float, float, float]]:
    """Each text's box (left, top, right, bottom) at the drawn font size."""
    out = []
    for t in picture.texts:
        w = text_width(t.text)
        left = {"start": t.x, "middle": t.x - w / 2, "end": t.x - w}[t.anchor]
        out.append((left, t.y - FONT, left + w, t.y + 2))
    return out


def assert_labels_apart_and_inside(picture: Picture) -> None:
    found = boxes(picture)
    for (a, b) in combinations(range(len(found)), 2):
        l1, t1, r1, b1 = found[a]
        l2, t2, r2, b2 = found[b]
        overlap = min(r1, r2) - max(l1, l2) > 0.5 and min(b1, b2) - max(t1, t2) > 0.5
        assert not overlap, (picture.texts[a], picture.texts[b])
    for left, top, right, bottom in found:
        assert left >= -1 and right <= picture.width + 1 and top >= -1
        assert bottom <= picture.height + 1


@pytest.mark.parametrize("players,tickets", [(3, 2), (2, 2), (2, 4), (3, 1), (4, 1)])
def test_every_class_of_the_focus_agent_is_one_region_holding_exactly_its_worlds(players,
                                                                                tickets):
    model = played(0, players=players, tickets_each=tickets)
    worlds = model.worlds
    for focus in range(players):
        picture = ClassGrid(worlds, focus, GameNames(model)).picture(worlds)
        regions = [r for r in picture.regions if r.agent == focus and r.kind != "row"]
        keys = worlds.observation(focus)
        assert len(regions) == len(set(keys.tolist()))
        marks = {int(m.key[1:]): m for m in picture.marks}
        for region in regions:
            inside = {w for w, m in marks.items() if region.x <= m.x <= region.x + region.w
                      and region.y <= m.y <= region.y + region.h}
            assert len({int(keys[w]) for w in inside}) == 1  # one class per region
        actual = [r for r in regions if r.actual]
        assert len(actual) == 1
        assert_labels_apart_and_inside(picture)
        assert picture.drawn_worlds == worlds.n_worlds


def test_the_third_players_classes_are_chains_not_cliques():
    model = played(0)  # 3 × 2: 90 worlds, player 2's 15 classes of 6
    picture = ClassGrid(model.worlds, 0, GameNames(model)).picture(model.worlds)
    chain = [k for k in picture.links if k.agent == 2]
    assert len(chain) == 15 * 5  # a clique would be 15 * 15
    assert sum(k.actual for k in chain) == 5
    assert not [k for k in picture.links if k.agent in (0, 1)]  # columns and rows say it


def test_worlds_keep_their_places_and_a_removed_world_fades_out_where_it_stood():
    model = played(0)
    layout = ClassGrid(model.worlds, 0, GameNames(model))
    first = {m.key: (m.x, m.y) for m in layout.picture(model.worlds).marks}
    until_pruned(model)
    after = layout.picture(model.worlds)
    assert {m.key: (m.x, m.y) for m in after.marks} == first  # nothing moved
    going = {m.key for m in after.marks if m.state == GOING}
    assert len(going) == model.initial_worlds - model.world_count
    page = svg(after)
    assert page.count('class="going"') == len(going) and "@keyframes ttr-fade" in page
    again = layout.picture(model.worlds)  # the next picture: gone, no longer fading
    assert {m.key for m in again.marks if m.state == GONE} == going


def test_hover_names_the_deal_of_every_world_and_the_actual_world_is_a_star():
    model = played(0)
    picture = ClassGrid(model.worlds, 0, GameNames(model)).picture(model.worlds)
    for m in picture.marks:
        assert re.search(r"player 0: t\d+ .*\nplayer 1: t\d+ .*\nplayer 2: t\d+", m.title)
    actual = [m for m in picture.marks if m.actual]
    assert len(actual) == 1 and "(the actual world)" in actual[0].title
    for p, hand in enumerate(model.state.tickets):
        assert f"player {p}: " + ", ".join(f"t{t.id} {t}" for t in hand) in actual[0].title
    page = svg(picture)
    assert page.count("<title>") >= 90 and page.count('class="star"') == 1


def test_a_players_view_fades_what_it_rules_out_and_the_formula_shows_on_faded_worlds():
    model = played(0)
    values = model.state.explicit_worlds.evaluate(f"p(1,{model.state.tickets[1][0].id})")
    picture = worlds_picture(model, {}, 1, 1, values)
    faded = [m for m in picture.marks if m.state == FADED]
    live = [m for m in picture.marks if m.state == LIVE]
    assert len(live) == len(model.worlds.possible_worlds(1)) and len(faded) == 90 - len(live)
    assert all(m.holds is not None for m in faded)
    page = svg(picture)
    assert re.search(r'class="w faded holds"', page) and re.search(r'class="w faded fails"',
                                                                   page)


def test_the_formula_colour_is_no_players_colour_in_either_theme():
    formulas = re.findall(r"--formula:(#[0-9a-f]{6})", STYLE)
    assert len(formulas) == 2  # light and dark
    for formula in formulas:
        f = np.array([int(formula[i:i + 2], 16) for i in (1, 3, 5)])
        for player in PLAYER_COLOURS:
            p = np.array([int(player[i:i + 2], 16) for i in (1, 3, 5)])
            assert np.abs(f - p).sum() > 150, (formula, player)


def test_dark_mode_themes_the_picture_and_the_board():
    assert ".theme--dark .ttr-pic" in STYLE and "--paper:#1c2126" in STYLE
    assert ".theme--dark" in PAGE_CSS and "--board-paper" in PAGE_CSS


def summary_tiles(picture: Picture, level: int) -> list[Mark]:
    return [m for m in picture.marks if m.tile and m.key.startswith(f"c{level}:")]


@pytest.mark.parametrize("players,tickets,levels", [(3, 3, 1), (4, 2, 1), (4, 3, 2)])
def test_a_model_too_big_to_draw_is_summarised_by_classes_for_every_player(players, tickets,
                                                                          levels):
    model = played(4, players=players, tickets_each=tickets)
    worlds = model.worlds
    hands = comb(players * tickets, tickets)
    for focus in range(players):
        layout = layout_for(worlds, focus, GameNames(model))
        assert isinstance(layout, ClassTiles) and len(layout.levels) == levels
        # every hand of the deal in exactly one tile, few enough tiles to carry a number
        members = [k for tile in layout.levels[0].tiles for k in tile.members]
        assert sorted(members) == list(range(hands))
        assert len(layout.levels[0].tiles) <= TILE_LIMIT
        picture = layout.picture(worlds)
        tiles = summary_tiles(picture, 0)
        assert sum(t.worlds for t in tiles) == worlds.n_worlds  # tiles account for every world
        actual = [t for t in tiles if t.actual]
        own = int(worlds.observation(focus)[worlds.actual])
        assert len(actual) == 1 and f"c0:{own}" == actual[0].key or any(
            own in tile.members and f"c0:{tile.members[0]}" == actual[0].key
            for tile in layout.levels[0].tiles)
        numbers = {t.text for t in picture.texts if t.role == "count"}
        assert all(short(t.worlds) in numbers for t in tiles if t.worlds)  # legible counts
        assert 1 < picture.drawn_worlds <= OPEN_LIMIT
        assert "too many to draw one by one" in picture.caption
        assert f"all {hands:,} hands of player {focus} as dealt" in picture.caption
        assert_labels_apart_and_inside(picture)
        assert picture.width <= WIDTH and picture.height <= HEIGHT + 1


def test_a_summary_counts_a_formula_per_tile_and_in_the_drawn_worlds():
    model = played(4, players=4, tickets_each=3)
    ticket = model.state.tickets[1][0].id
    values = model.state.explicit_worlds.evaluate(f"p(1,{ticket}) | K_0 p(2,{ticket})")
    picture = worlds_picture(model, {}, 0, None, values)
    tiles = [t for t in summary_tiles(picture, 0) if t.worlds]
    assert sum(t.holds for t in tiles) == int(values.sum())
    assert all(0 <= t.holds <= t.worlds for t in tiles)
    inner = [m for m in picture.marks if not m.tile and m.state == LIVE]
    cell = model.worlds.possible_worlds(0)
    cell = cell[model.worlds.observation(1)[cell] == model.worlds.observation(1)[
        model.worlds.actual]]
    assert sorted(m.holds for m in inner) == sorted(values[cell].astype(int).tolist())
    assert "formula true in" in " ".join(t.title for t in tiles)


def test_a_players_summary_opens_only_its_own_class_and_marks_no_other_actual_class():
    model = played(4, players=4, tickets_each=3)
    picture = worlds_picture(model, {}, 2, 2, None)
    assert len(summary_tiles(picture, 1)) > 1 and picture.drawn_worlds == 0
    assert [t.key for t in picture.marks if t.actual] == [
        t.key for t in summary_tiles(picture, 0) if t.state == LIVE]  # its own tile alone
    assert all(t.state == FADED for t in summary_tiles(picture, 0) if not t.actual)
    assert all(r.agent == 2 for r in picture.regions if r.actual and r.kind != "panel")
    assert "player 2's own class opened into" in picture.caption
    page = svg(picture)
    assert page.count('class="star"') == 1  # on its own tile: it knows its own hand


def test_a_players_summary_draws_its_worlds_once_its_class_is_small_enough():
    # Seed 2: its class first shrinks to 57 worlds, a grid that fits (on the issue-10 board,
    # seed 7's first small class, 72 worlds, does not fit one, so it stays tiles).
    model = played(0, rng=2, players=4, tickets_each=3)
    layouts: dict = {}
    first = worlds_picture(model, layouts, 1, 1, None)
    assert first.drawn_worlds == 0  # 1,680 worlds in its class: the next player's tiles
    while model.worlds.possible_worlds(1).size > OPEN_LIMIT:
        model.step()
    later = worlds_picture(model, layouts, 1, 1, None)
    assert later.drawn_worlds == model.worlds.possible_worlds(1).size
    assert "player 1's own class opened into its" in later.caption
    places = {m.key: (m.x, m.y) for m in summary_tiles(first, 0)}
    assert {m.key: (m.x, m.y) for m in summary_tiles(later, 0)} == places  # tiles stay
    assert not [m for m in later.marks if m.actual and not m.tile]
    assert_labels_apart_and_inside(later)


def test_a_focus_first_chosen_after_classes_emptied_still_draws_every_class():
    model = played(0, players=4, tickets_each=3)
    while np.count_nonzero(model.worlds.class_sizes(3)) == 220:
        model.step()
    left = int(np.count_nonzero(model.worlds.class_sizes(3)))
    layout = layout_for(model.worlds, 3, GameNames(model))  # the first layout for player 3
    assert sorted(k for t in layout.levels[0].tiles for k in t.members) == list(range(220))
    picture = layout.picture(model.worlds)
    assert sum(t.worlds for t in summary_tiles(picture, 0)) == model.world_count
    heading = " ".join(t.text for t in picture.texts if t.role == "heading")
    assert f"Player 3's hands: {left:,} of 220 still possible" in heading
    assert "all 220 hands of player 3 as dealt" in picture.caption


def test_the_deal_grid_fits_beside_the_board_at_1280_by_800():
    model = played(0)
    picture = ClassGrid(model.worlds, 0, GameNames(model)).picture(model.worlds)
    assert picture.width <= WIDTH and picture.height <= HEIGHT
    assert min(m.r for m in picture.marks) >= 6  # dots still big enough to point at


def test_a_players_grid_stars_no_world_and_outlines_only_its_own_class():
    model = played(3)
    picture = worlds_picture(model, {}, 1, 1, None)
    assert not [m for m in picture.marks if m.actual]
    assert {r.agent for r in picture.regions if r.actual} == {1}
    assert not [k for k in picture.links if k.actual]
    assert all("actual" not in m.title for m in picture.marks)
    assert 'class="star"' not in svg(picture)


@pytest.mark.slow
def test_the_4x4_deal_is_summarised_in_tiles_that_carry_their_numbers():
    model = TTRModel(rng=7, players=4, tickets_each=4)
    picture = worlds_picture(model, {}, 2, None, None)
    tiles = summary_tiles(picture, 0)
    assert len(tiles) == 13  # 1,820 hands by lowest ticket: 2 … 14 of the 16 dealt
    assert sum(t.worlds for t in tiles) == 63_063_000
    numbers = [t.text for t in picture.texts if t.role == "count"]
    assert all(short(t.worlds) in numbers for t in tiles)
    assert picture.drawn_worlds == 70
    assert "63,063,000 worlds" in picture.caption and "all 1,820 hands of player 2" in \
        picture.caption and "all 495 hands of player 3" in picture.caption
    assert_labels_apart_and_inside(picture)


@pytest.mark.parametrize(("players", "tickets", "seed", "turns"),
                         [(3, 3, 5, 14), (4, 3, 3, 10), (2, 6, 2, 12)])
def test_a_symbolic_game_draws_the_same_picture_as_its_list_of_worlds(players, tickets, seed,
                                                                       turns):
    """The demo holds a 4 × 4 game symbolically and draws it from counts on diagrams
    (``kripke.parts``). That picture must be the one the list of worlds gives, tile for
    tile and world for world, hover texts and caption included: for every focus, in the
    outside view and each player's own, with and without a formula, turn after turn as
    announcements empty classes and open the drawn worlds."""
    games = [TTRModel(players=players, tickets_each=tickets, rng=seed, backend=backend)
             for backend in ("explicit", "symbolic")]
    layouts: list[dict] = [{}, {}]
    dealt = [t.id for t in games[0].state.dealt_tickets]
    formula = f"K_0 ~p(1,{dealt[0]}) | M_1 p(0,{dealt[-1]})"
    compared, drawn, counted = 0, False, False
    for turn in range(turns):
        if turn % 3 == 0 or games[0].world_count != games[0].history[-1].worlds_before:
            values = [_values(g, formula) if turn % 2 else None for g in games]
            for focus in range(players):
                for perspective in (None, focus):
                    listed, symbolic = (
                        worlds_picture(g, lay, focus, perspective, v)
                        for g, lay, v in zip(games, layouts, values, strict=True))
                    assert symbolic == listed, (turn, focus, perspective)
                    compared += 1
                    drawn |= listed.drawn_worlds > 0
                    counted |= any(m.holds is not None and m.tile for m in listed.marks)
        if not games[0].running:
            break
        for game in games:
            game.step()
    assert games[1].world_count == games[0].world_count < games[0].initial_worlds
    assert compared >= 3 * 2 * players and drawn and counted


def test_puzzles_bring_their_own_coordinates():
    model = muddy_children(3, {0, 2})
    cube = {w: ((w & 1) + 0.45 * ((w >> 2) & 1), ((w >> 1) & 1) + 0.3 * ((w >> 2) & 1))
            for w in range(8)}
    layout = FixedPositions(model, 0, cube)
    picture = layout.picture(model)
    assert len(picture.regions) == 4  # child 0's classes: the cube's edges along its axis
    assert {k.agent for k in picture.links} == {1, 2}
    after = layout.picture(model.announce("m0 | m1 | m2"))
    assert [m.key for m in after.marks if m.state == GOING] == ["w0"]


def test_the_end_of_the_game_names_the_winner_and_reveals_every_ticket():
    model = played(0, trains=4)
    model.run()
    status = re.sub("<[^>]+>", "", status_html(model))
    scores = model.state.scores()
    assert f"wins with {max(scores)} points" in status or "A tie" in status
    table = re.sub("<[^>]+>", "", knowledge_html(model, perspective=1))
    assert "every ticket has been revealed" in table and "?" not in table


def _values(game: TTRModel, formula: str) -> Values | None:
    """The formula's values in a game's model as the formula box gets them."""
    result = first_result(game.worlds, formula)
    assert isinstance(result, FormulaResult)  # a quick formula: at once
    return result.values
