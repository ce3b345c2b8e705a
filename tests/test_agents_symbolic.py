"""The epistemic game on the symbolic backend: the same games as the explicit one wherever both
fit, and games far past the explicit limit (5 × 3, 5 × 4, a 20-ticket deck dealt out whole)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import boards
from agents import log
from agents.model import TooManyDeals, TTRModel
from app.cli.main import main
from boards import load_board
from game.knowledge import MAX_WORLDS, Backend, resolve_backend, ticket_atom
from kripke import DealModel, ModelTooLargeError, SymbolicDealModel, deal_count

SIZES = [(3, 2), (3, 3), (4, 2), (2, 4), (4, 3), (2, 2)]
KINDS = ["epistemic", "epistemic", "epistemic,baseline", "random,epistemic,baseline",
         "baseline"]


def turns(model: TTRModel):
    """Every decision and every announcement of a game, with the worlds before and after."""
    return [(t.player, t.actions, t.block,
             [(a.kind, a.text, a.worlds_before, a.worlds_after) for a in t.announcements])
            for t in model.history]


def knowledge(model: TTRModel):
    return [model.state.knowledge(p).possible for p in range(model.rules.players)]


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_both_backends_play_the_same_500_games(chunk):
    """500 seeded games of every size the explicit model holds cheaply and every mix of kinds:
    the same decisions, the same announcements removing the same numbers of deals, the same
    scores and, at the end, the same knowledge of who holds which ticket."""
    for seed in range(chunk * 50, chunk * 50 + 50):
        players, tickets = SIZES[seed % len(SIZES)]
        kinds = KINDS[seed % len(KINDS)]
        if kinds.count(",") + 1 not in (1, players):
            kinds = kinds.split(",")[0]
        games = [TTRModel(players=players, tickets_each=tickets, agent_kinds=kinds, rng=seed,
                          backend=backend) for backend in ("explicit", "symbolic")]
        for game in games:
            game.run()
        explicit, symbolic = games
        assert isinstance(explicit.worlds, DealModel)
        assert isinstance(symbolic.worlds, SymbolicDealModel)
        assert turns(symbolic) == turns(explicit), seed
        assert symbolic.state.scores() == explicit.state.scores()
        assert knowledge(symbolic) == knowledge(explicit)


def test_auto_is_explicit_up_to_the_limit_and_symbolic_above():
    assert deal_count(16, [4] * 4) == MAX_WORLDS
    assert resolve_backend("auto", 4, 4) is Backend.EXPLICIT
    assert resolve_backend("auto", 5, 3) is Backend.SYMBOLIC
    assert resolve_backend("symbolic", 2, 1) is Backend.SYMBOLIC
    with pytest.raises(ValueError, match="unknown backend 'bdd'; choose from auto, explicit"):
        resolve_backend("bdd", 3, 2)
    with pytest.raises(TooManyDeals, match="168,168,000 possible deals.*symbolic backend"):
        TTRModel(players=5, tickets_each=3, backend="explicit")


def assert_truthful_to_the_end(model: TTRModel) -> None:
    """The actual deal survived every announcement, counts only fell, and every player still
    considers the true holder of each ticket possible and knows its own tickets."""
    counts = [model.initial_worlds] + [t.worlds_after for t in model.history]
    assert all(a >= b >= 1 for a, b in zip(counts, counts[1:], strict=False))
    for p, held in enumerate(model.state.tickets):
        for ticket in held:
            assert model.worlds.holds(ticket_atom(p, ticket.id))
            for q in range(model.rules.players):
                assert p in model.state.knowledge(q).possible[ticket.id]
            assert model.state.knowledge(p).known(ticket.id) == p


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_five_players_with_three_tickets_play_symbolically(seed, tmp_path):
    """5 × 3 on europe24: 168,168,000 deals, past the explicit limit, so auto goes symbolic;
    the game's log replays to the same counts."""
    model = TTRModel(players=5, tickets_each=3, rng=seed)
    assert model.state.backend is Backend.SYMBOLIC
    assert model.initial_worlds == deal_count(15, [3] * 5) == 168_168_000
    model.run()
    assert_truthful_to_the_end(model)
    assert any(t.announcements for t in model.history)
    path = tmp_path / "game.jsonl"
    log.save(model, path)
    _, worlds = log.replay(path)
    assert worlds.n_worlds == model.world_count


def test_five_players_with_four_tickets_deal_a_20_ticket_deck_out_whole(tmp_path):
    """A deck of exactly 20 tickets (the USA board's first 20), dealt 4 each to 5 players:
    305,540,235,000 deals, and every ticket is in someone's hand."""
    raw = json.loads((Path(boards.__file__).parent / "data" / "usa.json").read_text())
    raw["tickets"] = raw["tickets"][:20]
    board_file = tmp_path / "usa20.json"
    board_file.write_text(json.dumps(raw))
    board = load_board(board_file)
    assert len(board.tickets) == 20
    model = TTRModel(board=board, players=5, tickets_each=4, rng=5)
    assert model.initial_worlds == deal_count(20, [4] * 5) == 305_540_235_000
    model.run()
    assert_truthful_to_the_end(model)
    assert model.world_count < model.initial_worlds


def test_five_players_with_four_tickets_on_the_usa_board():
    """5 × 4 of the USA board's 30 tickets (which 20 were dealt is public, as always)."""
    model = TTRModel(board="usa", players=5, tickets_each=4, rng=8)
    model.run()
    assert_truthful_to_the_end(model)


def test_a_symbolic_game_lists_its_worlds_when_asked_and_says_so_past_the_limit():
    """What needs a list of worlds (a value per world, an explanation, a file) gets the same
    list from a symbolic game as from the explicit one, made by replaying its announcements:
    the same worlds, ids, actual world and values. A game past the explicit limit is refused
    with the number of deals, before anything is listed."""
    games = [TTRModel(players=3, tickets_each=3, rng=4, backend=b)
             for b in ("explicit", "symbolic")]
    for _ in range(12):
        for game in games:
            game.step()
    explicit, symbolic = games
    assert symbolic.world_count < symbolic.initial_worlds  # announcements were made
    listed = symbolic.state.explicit_worlds
    assert listed.world_ids.tolist() == explicit.worlds.world_ids.tolist()
    assert listed.world_id(listed.actual) == explicit.worlds.world_id(explicit.worlds.actual)
    a, b = (t.id for t in explicit.state.dealt_tickets[:2])
    formula = f"K_0 ~p(1,{a}) | M_2 p(0,{b})"
    assert symbolic.state.explicit_worlds.evaluate(formula).tolist() == \
        explicit.worlds.evaluate(formula).tolist()
    assert symbolic.state.explicit_worlds is listed  # kept until the shared model changes
    symbolic.step()
    assert symbolic.state.explicit_worlds.n_worlds == symbolic.world_count
    big = TTRModel(board="usa", players=5, tickets_each=4, rng=8)
    t = big.state.dealt_tickets[0].id
    with pytest.raises(ModelTooLargeError, match="305,540,235,000 worlds.*to list"):
        big.state.explicit_worlds.evaluate(f"p(0,{t})")
    both = f"p(0,{t}) | ~p(0,{t})"
    assert big.worlds.holds(both) and big.worlds.count(both) == big.world_count


def test_check_command_on_the_symbolic_backend(capsys):
    """``check`` past the explicit limit (auto goes symbolic), and the same output from both
    backends where both fit."""
    own = TTRModel(players=5, tickets_each=3, rng=2).state.tickets[0][0].id
    assert main(["check", f"K_0 p(0,{own})", "--players", "5", "--tickets", "3", "--turn",
                 "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "TRUE at the actual world" in out and " 4:{" in out  # five players' hands
    other = TTRModel(rng=2).state.tickets[1][0].id
    outputs = []
    for backend in ("explicit", "symbolic"):
        for turn in ("0", "5"):
            code = main(["check", f"K_0 p(1,{other})", "--turn", turn, "--backend", backend,
                         "--seed", "2"])
            outputs.append((code, capsys.readouterr().out))
    assert outputs[:2] == outputs[2:]
    assert "FALSE" in outputs[0][1]  # at the deal, player 0 cannot know player 1's ticket
