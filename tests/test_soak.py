"""Issue 27, item 6: the soak's slice for CI (50 games of each rule set, every action checked,
each game played twice and replayed), and the soak catches a broken rule."""

from __future__ import annotations

import pytest

import game.table
from app.cli.main import main
from bench.soak import soak_game


def test_fifty_games_of_each_rule_set_break_no_invariant(capsys):
    assert main(["bench", "soak", "--games", "50", "--no-progress"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.startswith(("simplified ", "standard "))}
    for rules in ("simplified", "standard"):
        assert rows[rules][1] == "50" and rows[rules][3] == "0" and rows[rules][-1] == "met"
        assert int(rows[rules][2].replace(",", "")) > 50 * 20  # every action, not every game


def test_a_card_lost_on_a_claim_is_a_violation(monkeypatch):
    spend = game.table.TableState._spend

    def loses_one(self, p, paid):
        spend(self, p, paid)
        self.discard.pop()  # a card vanishes

    monkeypatch.setattr(game.table.TableState, "_spend", loses_one)
    soaked = soak_game("simplified", 1)
    assert any("train cards not conserved" in v for v in soaked.violations)


@pytest.mark.parametrize("rules", ["simplified", "open", "standard"])
def test_a_soaked_game_counts_its_actions(rules):
    assert soak_game(rules, 3).actions > 20


def test_ctrl_c_prints_the_tally_of_the_games_finished(monkeypatch, capsys):
    import bench.soak

    soak = bench.soak.soak_game

    def stopped_at_seed_4(rules, seed):
        if seed == 4:
            raise KeyboardInterrupt
        return soak(rules, seed)

    monkeypatch.setattr(bench.soak, "soak_game", stopped_at_seed_4)
    assert main(["bench", "soak", "--games", "100", "--no-progress"]) == 130
    out, err = capsys.readouterr()
    assert "interrupted: the tally is of the 12 games finished of 300" in err
    assert [line.split()[1] for line in out.splitlines()
            if line.startswith(("simplified ", "open ", "standard "))] == ["4", "4", "4"]
