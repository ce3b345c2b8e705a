"""JSON Lines event logs: a header line (rules and seed) and one line per applied action.

Replaying the actions from the seed reproduces the game exactly; :func:`replay` also checks that
every recorded event comes out the same. The header names the board's fingerprint and the
rules' version, so a log recorded on another version of the board or under other rules is
refused with a message that says so, before any action is replayed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from boards import Board
from boards.loader import load_board
from game.actions import action_from_json, action_to_json
from game.files import atomic_output
from game.play import start_game
from game.rules import EPISTEMIC_RULES, RULES_VERSION, Rules
from game.standard_rules import StandardRules
from game.table import Event, TableState

LOG_FORMAT = "ttr-kripke-log"
#: 2: the header names the board's fingerprint and the rules' version; 3: a declared block is
#: logged as the action taken (a version 2 log wrote its claim, the block in its announcement)
LOG_VERSION = 3
#: Why a log of an older version cannot be replayed, by version.
_OLDER = {1: "written before logs named their board's fingerprint and rules' version: europe24 "
             "and the rules have changed since, so it cannot be replayed",
          2: "written before a declared block was logged as the action taken, and before the "
             "random player chose uniformly among the legal actions"}
_RULES: dict[str, type[Rules]] = {**EPISTEMIC_RULES, StandardRules.variant: StandardRules}


def header(state: TableState, **extra: Any) -> dict[str, Any]:
    """The first line of a log: enough to deal the same game again, and to know it is the same
    board and the same rules. Standard games say so (``"variant": "standard"``); a log without
    it is a simplified game."""
    rules = state.rules
    settings = {f.name: getattr(rules, f.name) for f in fields(rules) if f.name != "board"}
    variant = {} if rules.variant == Rules.variant else {"variant": rules.variant}
    return {"format": LOG_FORMAT, "version": LOG_VERSION, "board": rules.board.name,
            "board_fingerprint": rules.board.fingerprint, "rules_version": RULES_VERSION,
            "seed": state.seed, **variant, "rules": settings, **extra}


def event_to_json(event: Event) -> dict[str, Any]:
    data = asdict(event)
    data["action"] = action_to_json(event.action)
    data["cards"] = list(event.cards)
    data["completed"] = list(event.completed)
    for extra in ("tickets", "revealed"):  # standard-game fields: other logs stay as they were
        if data[extra]:
            data[extra] = list(data[extra])
        else:
            del data[extra]
    return data


def event_from_json(data: dict[str, Any]) -> Event:
    return Event(index=data["index"], turn=data["turn"], player=data["player"],
                 action=action_from_json(data["action"]), cards=tuple(data["cards"]),
                 completed=tuple(data["completed"]), turn_over=data["turn_over"],
                 end_reason=data["end_reason"], tickets=tuple(data.get("tickets", ())),
                 revealed=tuple(data.get("revealed", ())))


def write_log(path: str | Path, head: dict[str, Any], lines: Iterable[dict[str, Any]]) -> None:
    """Write a header and event records (dicts; callers may add their own keys), atomically:
    an existing log is replaced only once the new one is complete."""
    with atomic_output(path) as f:
        f.write(json.dumps(head) + "\n")
        for line in lines:
            f.write(json.dumps(line) + "\n")


def read_log(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read a log file; errors name the file and line."""
    records: list[dict[str, Any]] = []
    blank = 0
    try:
        with open(path, "rb") as f:
            raw = f.readlines()
    except OSError as e:
        raise ValueError(f"{path}: cannot be read ({e.strerror}); give the file play --log "
                         "wrote") from None
    for number, data in enumerate(raw, 1):
        try:
            # a byte-order mark (Notepad's UTF-8) may start the file, as a model file's may
            line = data.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"{path}: line {number}: not UTF-8 text (byte {data[e.start]:#04x} "
                             f"at column {e.start + 1}); the log was edited or is not a log, "
                             "record the game again") from None
        if not line.strip():
            blank = blank or number
            continue
        if blank:  # a gap would shift every later event off its line number
            raise ValueError(f"{path}: line {blank}: an empty line inside the log; the log "
                             "was edited, record the game again")
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: line {number}: not JSON ({e.msg})") from None
        except (RecursionError, ValueError):  # deep nesting, a number of 4,300 digits
            raise ValueError(f"{path}: line {number}: not a log record (nested too deeply "
                             "or a number too long)") from None
        if not isinstance(record, dict):
            raise ValueError(f"{path}: line {number}: a log line must be a JSON object, "
                             f"not {type(record).__name__}")
        missing = [k for k in _EVENT_KEYS if k not in record] if records else []
        if missing:
            raise ValueError(f"{path}: line {number}: the event lacks {', '.join(missing)}; "
                             "the log was edited or cut, record the game again")
        records.append(record)
    if not records or records[0].get("format") != LOG_FORMAT:
        raise ValueError(f"{path}: line 1: not a {LOG_FORMAT} header")
    version = records[0].get("version")
    if version != LOG_VERSION:
        older = f" ({_OLDER[version]})" if type(version) is int and version in _OLDER else ""
        raise ValueError(f"{path}: line 1: log version {version} is not {LOG_VERSION}, the "
                         f"version this program reads{older}; record the game again")
    return records[0], records[1:]


def final(state: TableState) -> dict[str, Any]:
    """Where the recorded game stood when the log was written, for the header's ``final``: an
    edited header (trains 18 → 19) replays every event alike and still ends elsewhere."""
    return {"turn": state.turn, "trains": list(state.trains), "scores": state.scores()}


def check_final(head: dict[str, Any], state: TableState) -> None:
    """``ValueError`` if a header that records its game's end (``final``) disagrees with the
    replayed game; logs written before it was recorded are taken as they are."""
    logged, replayed = head.get("final"), final(state)
    if logged is not None and logged != replayed:
        differ = [k for k in replayed if not isinstance(logged, dict) or logged.get(k) !=
                  replayed[k]]
        raise ValueError(f"line 1: the log says the game ended with other {', '.join(differ)} "
                         f"than its replay ({', '.join(f'{k} {replayed[k]}' for k in differ)}): "
                         "the log was edited; record the game again")


def rules_from_header(head: dict[str, Any], board: Board | None = None) -> Rules:
    """The rules a header describes; pass ``board`` for a game played on a board file. Raises
    ``ValueError`` when the board is not the one the game was played on (its fingerprint
    differs) or the rules have changed since."""
    variant = head.get("variant", Rules.variant)
    if variant not in _RULES:
        raise ValueError(f"unknown rules variant {variant!r}; this program plays "
                         f"{', '.join(_RULES)}")
    board = board or load_board(head["board"])
    if head.get("rules_version") != RULES_VERSION:
        raise ValueError(f"the log was played under rules version {head.get('rules_version')}, "
                         f"this program plays version {RULES_VERSION}; record the game again")
    if head.get("board_fingerprint") != board.fingerprint:
        raise ValueError(f"the log was played on a board {head.get('board')} with fingerprint "
                         f"{head.get('board_fingerprint')}, but board {board.name} here has "
                         f"fingerprint {board.fingerprint} (the board has changed since); "
                         "replay it with the board file it was played on")
    return _RULES[variant](board=board, **head["rules"])


def start(head: dict[str, Any], board: Board | None = None) -> TableState:
    """The game a header describes, dealt and not yet played (see :func:`header_rules`)."""
    return start_game(header_rules(head, board), head["seed"])


def header_rules(head: dict[str, Any], board: Board | None = None) -> Rules:
    """The rules a header describes, its seed checked too (see :func:`rules_from_header`).
    Anything wrong with the header is a ``ValueError`` on line 1 (an edited header raised
    ``KeyError`` and ``TypeError``)."""
    seed, rules = head.get("seed"), head.get("rules")
    if board is None and not isinstance(head.get("board"), str):
        raise ValueError("line 1: the header names no board; the log was edited, record the "
                         "game again")
    if not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**64):
        raise ValueError(f"line 1: the header's seed {seed!r} is not a seed; the log was "
                         "edited, record the game again")
    if not (isinstance(rules, dict) and all(isinstance(v, int) and not isinstance(v, bool)
                                            for v in rules.values())):
        raise ValueError("line 1: the header's rules are not whole numbers by name; the log "
                         "was edited, record the game again")
    try:
        return rules_from_header(head, board)
    except TypeError as e:  # a rule this program does not know
        raise ValueError(f"line 1: the header's rules do not fit this program ({e}); record "
                         "the game again") from None
    except ValueError as e:  # the board's fingerprint, the rules' version, a rule's value
        raise ValueError(f"line 1: {e}") from None


def replay_states(head: dict[str, Any], events: Iterable[dict[str, Any]],
                  board: Board | None = None) -> Iterator[tuple[TableState, Event]]:
    """Re-deal the game and apply each logged action, yielding the state after each (one state,
    changing as it goes); raises ``ValueError`` at the first event that does not come out as
    recorded. A simplified game's outside announcements are not made again
    (``agents.log.replay`` makes them, and checks every announcement)."""
    state = start(head, board)
    for event in apply_logged(state, events):
        yield state, event


def replay(head: dict[str, Any], events: Iterable[dict[str, Any]],
           board: Board | None = None) -> TableState:
    """The final state of a logged game (see :func:`replay_states`)."""
    state = start(head, board)
    for _ in apply_logged(state, events):
        pass
    check_final(head, state)
    return state


#: What every event line holds (``event_to_json``'s keys that every rules variant writes).
_EVENT_KEYS = ("index", "turn", "player", "action", "cards", "completed", "turn_over",
               "end_reason")


def apply_logged(state: TableState, events: Iterable[dict[str, Any]]) -> Iterator[Event]:
    """Apply each logged action to ``state``, checking that it does what the log says."""
    for line, record in enumerate(events, 2):  # line 1 is the header
        try:
            expected = event_from_json(record)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"line {line}: not an event this program wrote ({type(e).__name__}"
                             f": {str(e)[:80]}); the log was edited, record the game again") \
                from None
        try:
            got = state.apply(expected.action)
        except (ValueError, TypeError, KeyError, IndexError) as e:  # an edited action's fields
            raise ValueError(f"line {line}: the logged action is not legal here ({e}); the log "
                             "was edited or comes from other rules") from None
        if got != expected:
            differ = [f"{f.name} {getattr(expected, f.name)!r} in the log, "
                      f"{getattr(got, f.name)!r} in the replay" for f in fields(Event)
                      if getattr(expected, f.name) != getattr(got, f.name)]
            raise ValueError(f"line {line}: replay diverges at event {expected.index}: "
                             f"{'; '.join(differ)}")
        yield got
