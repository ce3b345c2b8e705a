"""Event logs of epistemic games: the engine's JSON Lines log plus, on the last event of each
turn, the turn's announcements in formula syntax with the worlds before and after.

Replaying plays the game again from the header's settings, seeds and agents (the same seed
gives the same game) and checks every line against what the replay writes: so an edit the rules
and the model would both accept (two announcements' formulas swapped, a claim turned into a
block, an announcement that removed no world deleted, another line-up or seed in the header) is
refused too, by its line. A log cut while it was recorded replays to its last whole turn.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.kinds import standard_kinds
from agents.model import TTRModel, TurnRecord
from agents.standard_game import StandardSpec, play_standard
from boards import Board
from game.knowledge import Announcement
from game.log import check_final, event_to_json, final, header, header_rules, read_log, write_log
from game.log import replay as replay_events
from game.standard_rules import StandardRules
from game.table import TableState
from kripke import AnnouncementError, Deal, FormulaError


def announcement_json(a: Announcement) -> dict[str, Any]:
    """An announcement as the log keeps it; an outside one also says who made it."""
    line: dict[str, Any] = {"kind": a.kind, "formula": a.text, "worlds_before": a.worlds_before,
                            "worlds_after": a.worlds_after}
    if a.by is not None:
        line["by"] = a.by
    return line


def records(model: TTRModel) -> Iterator[dict[str, Any]]:
    """One record per applied action, the turn's announcements on its last action (outside
    announcements made after the turn among them, in the order made)."""
    for turn in model.history:
        yield from turn_records(turn)


def turn_records(turn: TurnRecord) -> Iterator[dict[str, Any]]:
    """The records of one turn (see :func:`records`)."""
    for event in turn.events:
        line = event_to_json(event)
        if event.turn_over:
            line["announcements"] = [announcement_json(a) for a in turn.announcements]
            line["worlds_before"] = turn.worlds_before
            line["worlds_after"] = turn.worlds_after
        yield line


def log_header(model: TTRModel, cut: bool = False) -> dict[str, Any]:
    """The log's first line: the game's settings and seed, any outside announcement made
    before the first turn, and where the game stood when the log was written (``final``; not
    for a log ``cut`` short, whose state may be inside a turn the log does not hold)."""
    extra: dict[str, Any] = {}
    if model.opening:
        extra["announcements"] = [announcement_json(a) for a in model.opening]
    if not cut:
        extra["final"] = final(model.state)
    return header(model.state, agents=[s.kind for s in model.seats], model_seed=model.seed,
                  **extra)


def game_seed(head: dict[str, Any]) -> int | None:
    """The seed the game was played with, as ``play --seed`` and the page take it, or None if
    the log was not written by a ``TTRModel``. The header keeps two: ``model_seed`` is that
    one, and ``seed`` is the seed of the deal's own generator, which the model draws from it
    (what the rules need to deal again, and what a replay re-deals from)."""
    seed = head.get("model_seed")
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def save(model: TTRModel, path: str | Path, cut: bool = False) -> None:
    """Write the model's game so far (also a game stopped early: nothing played is lost).
    ``cut``: the game was stopped in the middle of a turn (Ctrl-C): its whole turns are
    written, without ``final``, and replay says the log was cut."""
    write_log(path, log_header(model, cut), records(model))


@dataclass(frozen=True)
class Replayed:
    """A log replayed: the game as the log leaves it, its shared model (None for a standard
    game, which keeps none) and, for a log cut short (Ctrl-C while the game was recorded, a
    crash: it has no ``final``), the line after its last whole turn."""

    state: TableState
    worlds: Deal | None
    cut_at: int | None = None


def replay(path: str | Path, board: Board | None = None
           ) -> tuple[TableState, Deal]:
    """The final game state and shared model of a logged game (see :func:`replay_log`)."""
    replayed = replay_log(path, board)
    if replayed.worlds is None:
        raise ValueError(f"{path}: line 1: a standard game's log; it has no shared model")
    return replayed.state, replayed.worlds


def replay_log(path: str | Path, board: Board | None = None) -> Replayed:
    """Play the logged game again, from the header's settings, seeds and agents, and check that
    every line comes out as logged: the header, each event, each announcement (its kind,
    formula and counts), the worlds each turn leaves. Outside announcements (they say ``by``
    whom) are made again where the log has them. ``ValueError`` names the file and the first
    line that differs (an edited header, event or announcement; one removed or swapped). A log
    without ``final`` that ends before the game does was cut while it was recorded: it replays
    to its last whole turn and :attr:`Replayed.cut_at` says where it stops (logs written
    before headers recorded ``final`` replay whole, every line checked as ever). A standard
    game's log is played again by its strategy agents, event by event."""
    head, lines = read_log(path)
    try:
        if not lines:
            raise ValueError("line 2: the log has no events to replay")
        if head.get("variant") == StandardRules.variant:
            return _replay_standard(head, lines, board)
        model = _model(head, board)
        _same(1, {k: v for k, v in head.items() if k != "final"},
              {k: v for k, v in log_header(model).items() if k != "final"})
        cut_at = _replay_turns(model, lines)
        if "final" in head:
            recorded = head["final"].get("turn") if isinstance(head["final"], dict) else None
            if cut_at is not None or (isinstance(recorded, int) and
                                      recorded > model.state.turn):
                raise ValueError(f"line {cut_at or len(lines) + 2}: the log ends at turn "
                                 f"{model.state.turn}, but its header says it was written at "
                                 f"turn {recorded}: lines were deleted; record the game again")
            check_final(head, model.state)
        elif model.running and cut_at is None:
            cut_at = len(lines) + 2
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    return Replayed(model.state, model.worlds, cut_at)


def _replay_standard(head: dict[str, Any], lines: list[dict[str, Any]],
                     board: Board | None) -> Replayed:
    """A standard game's log against the game its header's agents play from its seed."""
    rules = header_rules(head, board)  # the header's own checks
    agents, seed = head.get("agents"), head.get("game_seed")
    if not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**63):
        raise ValueError(f"line 1: the header's game_seed {seed!r} is not a seed; the log was "
                         "edited, record the game again")
    kinds = standard_kinds()
    if not (isinstance(agents, list) and agents and all(a in kinds for a in agents)):
        raise ValueError(f"line 1: the header's agents are not strategy agents "
                         f"({', '.join(kinds)}); the log was edited, record the game again")
    state, _ = play_standard(StandardSpec(rules.board, tuple(agents), rules.start_trains), seed)
    _same(1, head, header(state, agents=agents, game_seed=seed))
    played = [event_to_json(e) for e in state.history]
    for k, line in enumerate(lines):
        if k == len(played):
            raise ValueError(f"line {k + 2}: the game ended on line {k + 1}, yet the log goes "
                             "on; the log was edited, record the game again")
        _same(k + 2, line, played[k])
    if len(lines) == len(played):
        return Replayed(state, None)
    return Replayed(replay_events(head, lines, board), None, len(lines) + 2)


def _model(head: dict[str, Any], board: Board | None) -> TTRModel:
    """The model of the game a header describes, dealt and not yet played, with the header's
    outside announcements made; header problems are ``ValueError`` on line 1."""
    rules = header_rules(head, board)  # the header's own checks: seed, rules, board, version
    agents, seed = head.get("agents"), head.get("model_seed")
    if not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**63):
        raise ValueError(f"line 1: the header's model_seed {seed!r} is not a seed; the log was "
                         "edited, record the game again")
    if not (isinstance(agents, list) and all(isinstance(a, str) for a in agents)):
        raise ValueError("line 1: the header's agents are not a list of agent kinds; the log "
                         "was edited, record the game again")
    try:
        model = TTRModel(board=rules.board, players=rules.players,
                         tickets_each=rules.tickets_each, agent_kinds=agents,
                         trains=rules.trains, rng=seed, variant=rules.variant)
    except ValueError as e:
        raise ValueError(f"line 1: the header's settings do not make a game ({e}); the log "
                         "was edited, record the game again") from None
    _outside(model, head, 1, 0)
    return model


def _outside(model: TTRModel, line: dict[str, Any], number: int, own: int) -> None:
    """Make again the outside announcements a line logs after the game's own ``own`` ones."""
    logged = line.get("announcements", [])
    for a in logged[own:] if isinstance(logged, list) else ():
        if not (isinstance(a, dict) and isinstance(a.get("by"), str)):
            return  # not an outside announcement: the comparison names it
        try:
            model.announce_outside(str(a.get("formula")), by=a["by"])
        except (FormulaError, AnnouncementError) as e:
            raise ValueError(f"line {number}: the outside announcement {a.get('formula')!r} "
                             f"cannot be made here ({e}); the log was edited, record the game "
                             "again") from None


def _replay_turns(model: TTRModel, lines: list[dict[str, Any]]) -> int | None:
    """Play turn after turn, each checked against its lines; the line after the last whole
    turn if the log ends inside one (the model then stands after that turn), else None."""
    i = 0
    while i < len(lines):
        number = i + 2
        if not model.running:
            raise ValueError(f"line {number}: the game ended on line {number - 1}, yet the log "
                             "goes on; the log was edited, record the game again")
        before = model.snapshot()
        model.step()
        turn = model.history[-1]
        logged = lines[i:i + len(turn.events)]
        if len(logged) < len(turn.events):
            _same_events(model, number, logged)
            model.restore(before)
            return number
        _outside(model, logged[-1], number + len(logged) - 1, len(turn.announcements))
        _same_events(model, number, logged)
        i += len(logged)
    return None


def _same_events(model: TTRModel, number: int, logged: list[dict[str, Any]]) -> None:
    """The last turn's records against its logged lines, from line ``number``."""
    for k, (line, replayed) in enumerate(zip(logged, turn_records(model.history[-1]),
                                             strict=False)):
        _same(number + k, line, replayed)


#: What an event line holds, in the order a difference is named.
_EVENT_FIELDS = ("index", "turn", "player", "action", "cards", "completed", "tickets",
                 "revealed", "turn_over", "end_reason")


def _same(number: int, logged: dict[str, Any], replayed: dict[str, Any]) -> None:
    """``ValueError`` naming line ``number`` and the first field where the log differs from
    the replay."""
    replayed = json.loads(json.dumps(replayed))  # tuples as the log has them: lists
    if logged == replayed:
        return
    keys = [*(k for k in _EVENT_FIELDS if k in replayed or k in logged),
            *(k for k in replayed if k not in _EVENT_FIELDS),
            *(k for k in logged if k not in replayed and k not in _EVENT_FIELDS)]
    key = next(k for k in keys if logged.get(k, _ABSENT) != replayed.get(k, _ABSENT))
    mine, theirs = logged.get(key, _ABSENT), replayed.get(key, _ABSENT)
    if key == "announcements":
        detail = _announcements_differ(mine, theirs)
    elif key in _EVENT_FIELDS and "index" in replayed:
        detail = f"replay diverges at event {replayed['index']}: {key} {_shown(mine)} in the " \
                 f"log, {_shown(theirs)} in the replay"
    else:
        detail = f"{key} is {_shown(mine)} in the log, {_shown(theirs)} in the replay"
    raise ValueError(f"line {number}: {detail}; the log was edited, record the game again "
                     "(replayed from the settings, seeds and agents of line 1)")


_ABSENT = object()


def _announcements_differ(logged: Any, replayed: list[dict[str, Any]]) -> str:
    if not (isinstance(logged, list) and all(isinstance(a, dict) for a in logged)):
        return "the turn's announcements are missing or malformed"
    if len(logged) != len(replayed):
        return (f"{len(logged)} announcements in the log, {len(replayed)} in the replay (an "
                "announcement is missing or edited)")
    j, mine, theirs = next((j, a, b) for j, (a, b) in enumerate(zip(logged, replayed,
                                                                    strict=True)) if a != b)
    key = next(k for k in [*theirs, *mine] if mine.get(k, _ABSENT) != theirs.get(k, _ABSENT))
    return (f"announcement {j + 1}'s {key} is {_shown(mine.get(key, _ABSENT))} in the log, "
            f"{_shown(theirs.get(key, _ABSENT))} in the replay")


def _shown(value: Any, limit: int = 80) -> str:
    text = "missing" if value is _ABSENT else repr(value)
    return text if len(text) <= limit else f"{text[:limit]}…"
