"""The acceptance rule of a balancing level (:mod:`lab.race`) on a synthetic noisy objective:
it must not follow pure noise, and it must find a real improvement.

Each synthetic "board" is a win distribution of two agent kinds; a game's winner is drawn from
it. With common random numbers (the same uniform draw for every candidate on a seed, as the
same deal is for real boards) or without them, a challenger no better than the incumbent must
almost never be kept, where keeping the lowest estimate (the paper's rule) keeps one of two
equal challengers two times in three (without shared draws).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from lab.race import Rule, halving, halving_seeds, race

EVEN = (0.5, 0.5)


def synthetic(p_first: Sequence[float], shared_draws: bool, trial: int):
    """``play`` for boards on which kind 0 wins with probability ``p_first[i]``."""

    def play(which: Sequence[int], seeds: Sequence[int]) -> list[np.ndarray]:
        out = []
        for i in which:
            u = np.array([np.random.default_rng((trial, s, 0 if shared_draws else i)).random()
                          for s in seeds])
            first = (u < p_first[i]).astype(float)
            out.append(np.column_stack([first, 1 - first]))
        return out

    return play


@pytest.mark.parametrize("shared_draws", [True, False])
def test_pure_noise_is_not_accepted(shared_draws):
    rule = Rule(games=20, max_games=160)
    kept = [race(3, synthetic((0.7, 0.7, 0.7), shared_draws, t), EVEN, range(160), rule,
                 bootstrap_seed=t).winner for t in range(60)]
    assert sum(w != 0 for w in kept) <= 5  # alpha = 5% (measured 0 and 2 of 60)

    lowest = 0
    for t in range(60):  # the paper's rule on the same games: the lowest of 20 games each
        draws = synthetic((0.7, 0.7, 0.7), shared_draws, t)(range(3), range(20))
        lowest += int(np.argmin([abs(w[:, 0].mean() - 0.5) for w in draws]) != 0)
    assert lowest >= 20 if not shared_draws else lowest == 0


@pytest.mark.parametrize("shared_draws", [True, False])
def test_a_real_improvement_is_accepted(shared_draws):
    rule = Rule(games=20, max_games=320)
    outcomes = [race(3, synthetic((0.75, 0.7, 0.55), shared_draws, t), EVEN, range(320), rule,
                     bootstrap_seed=t) for t in range(30)]
    assert all(o.winner != 0 for o in outcomes)  # an improvement is always kept
    assert sum(o.winner == 2 for o in outcomes) >= 20  # mostly the larger one


def test_a_race_grows_only_while_undecided():
    rule = Rule(games=20, max_games=320)
    clear = race(2, synthetic((0.9, 0.5), True, 0), EVEN, range(320), rule)
    assert clear.winner == 1 and clear.games == 20
    equal = race(2, synthetic((0.6, 0.6), True, 0), EVEN, range(320), rule)
    assert equal.winner == 0 and equal.games == 320  # never decided: played to the end


def test_a_race_needs_its_seeds_and_a_sane_rule():
    with pytest.raises(ValueError, match="max_games seeds"):
        race(2, synthetic((0.5, 0.5), True, 0), EVEN, range(10), Rule(games=5, max_games=20))
    with pytest.raises(ValueError):
        Rule(games=30, max_games=20)


def test_halving_keeps_the_nearest_of_many_and_plays_the_near_ones_longest():
    """Successive halving over 16 synthetic boards, one of them far nearer the even split
    than the rest: it survives every halving, and the far boards stop early."""
    p_first = [0.8] * 16
    p_first[11] = 0.55
    played: dict[int, int] = {}
    for trial in range(20):
        play = synthetic(p_first, True, trial)

        def counted(which, seeds, play=play):
            for i in which:
                played[i] = played.get(i, 0) + len(seeds)
            return play(which, seeds)

        seeds = range(halving_seeds(16, 20))
        best, measured = halving(16, counted, EVEN, seeds, 20)
        assert best == 11 and len(measured) == 16
    assert halving_seeds(16, 20) == 160 and played[11] == 20 * 160  # to the last round
    assert min(played.values()) == 20 * 20  # the worst half: one round
    with pytest.raises(ValueError, match="halving_seeds"):
        halving(16, synthetic(p_first, True, 0), EVEN, range(100), 20)


def test_halving_is_a_choice_that_a_race_must_confirm():
    """Among equal boards halving still names one, and its own estimate is biased low (the
    best of many); the race on new seeds then keeps the incumbent."""
    kept, biased = 0, 0
    for trial in range(30):
        play = synthetic([0.7] * 16, False, trial)  # not shared: sixteen noisy estimates
        best, measured = halving(16, play, EVEN, range(halving_seeds(16, 20)), 20)
        biased += measured[best] < 0.4  # the true distance of every board is 0.4
        fresh = synthetic([0.7, 0.7], False, 1000 + trial)
        kept += race(2, fresh, EVEN, range(320), Rule(), bootstrap_seed=trial).winner != 0
    assert biased >= 20 and kept <= 4  # alpha 5% (measured 3 of 30)
