"""Who may claim a connection and the ways a hand can pay for it, as pure functions of public
facts (owners, trains) and the claimant's own hand.

Both the game state (to check an action) and a player's view (to list its choices) ask these,
so a policy that sees only its view gets exactly the legal claims the rules would accept.
"""

from __future__ import annotations

from collections.abc import Sequence

from boards import GREY, Board, Connection
from game.actions import BuildStation, Claim, TunnelPay
from game.cards import LOCO, colour_of

#: Why a connection cannot be claimed (cards aside): the codes of :func:`claim_blocked`.
FREE, TAKEN, TOO_LONG, OWN_MATE, CLOSED_MATE = range(5)


def claim_blocked(board: Board, owner: Sequence[int | None], trains: int, player: int,
                  connection: Connection, doubles_both_usable: bool) -> int:
    """``FREE`` if ``player`` with ``trains`` left may take ``connection`` (cards aside), else
    the reason's code. One player never holds both segments of a double; with fewer than 4
    players a taken segment closes its mate to everyone. (A code, not a message: agents ask
    this for every connection on every turn.)"""
    if owner[connection.id] is not None:
        return TAKEN
    if connection.length > trains:
        return TOO_LONG
    mate = board.double_mates.get(connection.id)
    if mate is not None:
        who = owner[mate]
        if who == player:
            return OWN_MATE
        if who is not None and not doubles_both_usable:
            return CLOSED_MATE
    return FREE


def why_unclaimable(board: Board, owner: Sequence[int | None], trains: int, player: int,
                    connection: Connection, doubles_both_usable: bool) -> str | None:
    """:func:`claim_blocked` as a sentence for a refusal, or ``None`` if the claim is open."""
    code = claim_blocked(board, owner, trains, player, connection, doubles_both_usable)
    if code == TAKEN:
        return f"{connection} is already taken by player {owner[connection.id]}"
    if code == TOO_LONG:
        return f"{connection} needs {connection.length} trains, player {player} has {trains}"
    if code == OWN_MATE:
        return f"player {player} already owns the other half of double {connection}"
    if code == CLOSED_MATE:
        return (f"the other half of double {connection} is taken; with fewer than 4 players "
                "only one half may be claimed")
    return None


def hand_can_pay(connection: Connection, hand: Sequence[int]) -> bool:
    """Whether ``hand`` pays for ``connection`` in any way (legality aside): the quick test
    before listing the ways, since most connections an agent considers it cannot pay yet."""
    locos = hand[LOCO]
    if locos < connection.ferry:
        return False
    need = colour_of(connection.colour)
    most = max(hand[:LOCO]) if need is None else hand[need]
    return most + locos >= connection.length


def hand_payments(connection: Connection, hand: Sequence[int]) -> list[Claim]:
    """Every distinct way ``hand`` pays for ``connection`` (legality aside), fewest locomotives
    first: cards of one colour (any one for grey), locomotives standing in, a ferry's
    locomotives among them."""
    length, locos = connection.length, hand[LOCO]
    need = colour_of(connection.colour)
    colours = range(LOCO) if need is None else (need,)
    out = []
    for colour in colours:
        least = max(connection.ferry, length - hand[colour])
        most = min(length - 1, locos)
        out += [Claim(connection.id, colour, n) for n in range(least, most + 1)]
    if locos >= length:
        out.append(Claim(connection.id, None, length))
    out.sort(key=lambda c: c.locomotives)
    return out


def payment_count(connection: Connection, hand: Sequence[int]) -> int:
    """``len(hand_payments(connection, hand))`` without building the claims: the game arc
    counts every way to pay on every turn of thousands of games."""
    length, locos = connection.length, hand[LOCO]
    need = colour_of(connection.colour)
    colours = range(LOCO) if need is None else (need,)
    most = min(length - 1, locos)
    count = sum(max(0, most - max(connection.ferry, length - hand[c]) + 1) for c in colours)
    return count + (locos >= length)


def tunnel_payments(hand: Sequence[int], colour: int | None, extra: int) -> list[TunnelPay]:
    """The ways ``hand`` (the cards played already set aside) pays a tunnel's ``extra`` cards:
    cards of the claim's ``colour`` or locomotives; only locomotives when the claim was paid
    with locomotives alone (``colour`` None). Fewest locomotives first."""
    if colour is None:
        return [TunnelPay(extra)] if hand[LOCO] >= extra else []
    return [TunnelPay(n) for n in range(max(0, extra - hand[colour]), min(extra, hand[LOCO]) + 1)]


def station_payments(hand: Sequence[int], city: str, cards: int) -> list[BuildStation]:
    """The ways ``hand`` pays ``cards`` cards of one colour (locomotives standing in) for a
    station on ``city``: a station is paid like a grey connection of that length."""
    like = Connection(id=-1, a=city, b=city, length=cards, colour=GREY)
    return [BuildStation(city, c.colour, c.locomotives) for c in hand_payments(like, hand)]
