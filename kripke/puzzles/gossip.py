"""The gossip problem on belief structures, SMCDEL's own belief benchmark (``bench.kripke``
times it): gossip with knowledge of secrets (``SMCDEL.Examples.GossipKw``), n = 4, read from
its definition, not its code.

Each agent i has a secret s(i) (true everywhere at the start: the law is ⊤) and knows only its
own (its relation: s(i) ↔ s(i)′). A call (a, b) is a transformer with event variables
``call_t(k)`` (k is in the call) and ``sec_t(k)`` (secret k is passed on): its precondition says
one pair calls and secret k passes exactly when it is a caller's own or one of the callers
knows it (``K_a s(k) ∨ K_b s(k)``, read before the call); a caller sees the whole event, every
other agent only that it was not in the call. A sequence succeeds when afterwards everybody
knows every secret. GossipKw's ``succeeds`` answers True for (1,2),(3,4),(1,3),(2,4) and False
for (1,2),(3,4),(1,3), where agents 2 and 4 still miss a secret each.
"""

from __future__ import annotations

from collections.abc import Sequence

from kripke.language.formula import And, Atom, Formula, Iff, Implies, Knows, Not, Or
from kripke.symbolic.belief import SymbolicBeliefModel, observing
from kripke.symbolic.transformer import Transformer, primed


def secret(k: int) -> Atom:
    return Atom("s", (k,))


def gossip_start(n: int) -> SymbolicBeliefModel:
    """n agents, each knowing its own secret only; every secret true."""
    atoms = [secret(k) for k in range(1, n + 1)]
    return observing(atoms, {k: [secret(k)] for k in range(1, n + 1)}, atoms)


def passes(a: int, b: int, k: int) -> Formula:
    """Secret k is passed on in a call of a and b: a caller's own, or one a caller knows."""
    if k in (a, b):
        return secret(k)
    return Or(Knows(a, secret(k)), Knows(b, secret(k)))


def call(model: SymbolicBeliefModel, a: int, b: int, n: int, t: int) -> Transformer:
    """Call number ``t`` (its event variables are named apart by t), between a and b."""
    in_call = [Atom(f"call{t}", (k,)) for k in range(1, n + 1)]
    passed = [Atom(f"sec{t}", (k,)) for k in range(1, n + 1)]
    pairs = [(i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1)]
    pre = Or.of([And.of([*(in_call[k - 1] if k in (i, j) else Not(in_call[k - 1])
                           for k in range(1, n + 1)),
                         *(Iff(passed[k - 1], passes(i, j, k)) for k in range(1, n + 1))])
                 for i, j in pairs])
    everything = [*in_call, *passed]
    same = And.of([Iff(x, primed(x)) for x in everything])
    relations = tuple((k, And(Iff(in_call[k - 1], primed(in_call[k - 1])),
                              Implies(in_call[k - 1], same))) for k in range(1, n + 1))
    actual = tuple((in_call[k - 1], k in (a, b)) for k in range(1, n + 1)) + \
        tuple((passed[k - 1], model.holds(passes(a, b, k))) for k in range(1, n + 1))
    return Transformer(tuple(everything), pre, (), relations, actual)


def succeeds(calls: Sequence[tuple[int, int]], n: int = 4) -> bool:
    """Whether everybody knows every secret after the calls (GossipKw's ``succeeds``)."""
    model = gossip_start(n)
    for t, (a, b) in enumerate(calls):
        model = model.update(call(model, a, b, n, t))
    return model.holds(And.of([Knows(i, secret(k)) for i in range(1, n + 1)
                               for k in range(1, n + 1)]))
