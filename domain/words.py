"""Events in words: a short English sentence per event for a game log.

Each game's package has a ``words`` module whose ``SENTENCES`` maps each of
its event types to a function of the event *as a viewer may see it* (the dict
``visible`` returns) to a sentence; this module holds the engine's own
events' sentences and the dispatch. A sentence is made only from that dict,
so it cannot tell a viewer what the dict does not: the leak tests compare the
sentences with the dicts.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

Sentences = Mapping[str, Callable[[dict], str]]


def count(n: int, noun: str, plural: str | None = None) -> str:
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def listed(items: Iterable[Any], empty: str = "nobody") -> str:
    names = [str(item) for item in items]
    if not names:
        return empty
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _standings(e: dict) -> str:
    ranked = sorted(e.get("standings") or (), key=lambda s: s.get("rank", 0))
    return "Final standings: " + (
        "; ".join(f"{s.get('rank')}. {s.get('seat')}" + (f" ({s['score']})" if s.get("score") is not None else "")
                  for s in ranked) or "none")


def _created(e: dict) -> str:
    # The game's title, not its API name; the seats counted, not listed (each is named by its player later on).
    from .games import REGISTRY

    title = getattr(REGISTRY.get(e["game"]), "title", e["game"])
    return (f"A game of {title} was created with {count(len(e.get('seats') or ()), 'seat')} (rules version "
            f"{e.get('rules_version', 1)})")


def _outcome(e: dict) -> str:
    return f"The game is over: {e['outcome']}; its seed is published"


ENGINE: dict[str, Callable[[dict], str]] = {
    "GameCreated": _created,
    "SeatTaken": lambda e: f"Player {e['player']} took seat {e['seat']}",
    "SeatLeft": lambda e: f"Player {e['player']} left seat {e['seat']}" + (
        f"; player {e['new_host']} is the host now" if e.get("new_host") else ""),
    "SeedContributed": lambda e: f"{e['seat']} contributed to the game's randomness",
    "GameCancelled": lambda e: f"The game was cancelled: {e['reason']}",
    # The player first, the seat after "seat": the API names a player where a seat id stands alone.
    "PlayersSeated": lambda e: "The game started with " + listed(
        f"{player} in seat {seat}" for seat, player in sorted((e.get("players") or {}).items())),
    "TurnTimedOut": lambda e: f"{e['seat']}'s time ran out; the rules acted for that seat",
    "GameOver": _outcome,
    "GameScored": _standings,
    "BotSeated": lambda e: f"A {e['kind']} bot plays {e['seat']}",
    "SeatResigned": lambda e: f"{e['seat']} resigned" + (f"; a {e['bot']} bot plays the seat" if e.get("bot") else ""),
    "GameAborted": lambda e: f"{e['seat']} aborted the game",
    "SeatAbandoned": lambda e: f"{e['seat']} was abandoned after {count(e['timeouts'], 'timeout')}; a {e['bot']} bot "
                               "plays the seat",
    "InviteIssued": lambda e: "An invitation was issued" + (f" for {e['seat']}" if e.get("seat") else ""),
    "InviteRedeemed": lambda e: f"Player {e['player']} accepted an invitation",
    "SeatReplaced": lambda e: f"Player {e['player']} took over {e['seat']}",
    "RematchInvited": lambda e: "A rematch was offered to " + listed(sorted((e.get("invited") or {}))),
    "RematchCreated": lambda e: f"A rematch was created: game {e['game_id']}",
    "ClocksComputed": lambda e: "The clocks were set",
    "SeatAway": lambda e: f"{e['seat']} is away until {e['until']}: no deadline runs for the seat meanwhile",
    "SeatBack": lambda e: f"{e['seat']} is back",
    "PauseAsked": lambda e: f"{e['seat']} asked to pause the game",
    "GamePaused": lambda e: "Every player agreed: the game is paused",
    "GameResumed": lambda e: f"{e['seat']} resumed the game",
    "TimeGiven": lambda e: f"{e['seat']} gave {e['to_seat']} {e['seconds']} s more on its deadline and bank",
    "TakebackAsked": lambda e: f"{e['seat']} asked to take back the move of version {e['version']}",
    "TakebackAccepted": lambda e: f"{e['seat']} accepted taking back the move of version {e['version']}",
    "TakebackRefused": lambda e: f"{e['seat']} refused the takeback",
    "EndProposed": lambda e: f"{e['seat']} proposed ending the game by agreement: "
                             + ("cancelled, with no result" if e['ending'] == "cancelled" else "as it stands"),
    "EndAccepted": lambda e: f"{e['seat']} accepted ending the game",
    "EndWithdrawn": lambda e: f"{e['seat']} withdrew or declined the proposal to end the game; it goes on",
    "EndAgreed": lambda e: "Every player agreed: the game ends "
                           + ("cancelled, with no result" if e['ending'] == "cancelled" else "as it stands"),
    "TakenBack": lambda e: f"The game went back to version {e['version']}",
}


def sentences_of(game: str) -> Sentences:
    """The game's sentences, as its package declares them; {} for a game without."""
    from .games import REGISTRY

    return getattr(REGISTRY.get(game), "sentences", None) or {}


def tell(game: str, visible: dict, viewer: str | None = None) -> str:
    """The sentence for ``visible`` (an event as ``viewer`` may see it, with
    its ``type``); KeyError when the type has none. ``viewer`` is taken so that
    a sentence may only ever depend on what that viewer sees."""
    kind = visible["type"]
    sentence = ENGINE.get(kind) or sentences_of(game)[kind]
    return sentence(visible)


def describe(game: str, visible: dict, viewer: str | None = None) -> str:
    """``tell``, but never failing: an event no sentence can read (an odd
    stored shape) is named by its type, so a feed is never refused for words."""
    try:
        return tell(game, visible, viewer)
    except Exception:  # noqa: BLE001 - words are a courtesy; the event itself is in the answer
        return _split_words(str(visible.get("type", "event")))


def command(rules, data: dict) -> str:
    """A legal command (its JSON) in words, by the game's ``command_sentences``;
    never failing, like ``describe``: a command no sentence reads is named by
    its type ("Place detective"), never shown as data."""
    try:
        return rules.command_sentence(data)
    except Exception:  # noqa: BLE001 - words are a courtesy; the command itself is in the answer
        return _split_words(str(data.get("type", "command")))


def _split_words(name: str) -> str:
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    return words[:1].upper() + words[1:]
