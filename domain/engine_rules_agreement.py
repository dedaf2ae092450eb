"""Rules 5.5 and 5.8 for a game ended by agreement (domain.lifecycle.agreement),
checked from the engine's events and the metadata alone, as section 5 of
openapi/verifying-a-game.md states them (split from ``domain.engine_rules``,
which calls them)."""

from __future__ import annotations

from .lifecycle.agreement_events import AS_IT_STANDS, ENDINGS
from .engine_rules_time import not_its_player
from .seat_holders import Seats

KINDS = ("ProposeEnd", "AcceptEnd", "WithdrawEnd")
FIRST = {"ProposeEnd": "EndProposed", "AcceptEnd": "EndAccepted", "WithdrawEnd": "EndWithdrawn"}
OUTCOME = "Ended by agreement of its players, as it stands: "


def fits(kind: str, types: list[str]) -> bool:
    """Rule 5.3: the proposal or acceptance, then EndAgreed (and GameOver) when it completes the agreement."""
    if kind == "WithdrawEnd":
        return types == ["EndWithdrawn"]
    return types in ([FIRST[kind]], [FIRST[kind], "EndAgreed"], [FIRST[kind], "EndAgreed", "GameOver"])


def agreeing(game: Seats, kind: str, actor, seat, meta, batch) -> list[str]:
    """Rule 5.5: a player of the seat proposes, accepts or withdraws; the
    game ends in the batch of the last acceptance, and only there."""
    data = batch[0]["data"]
    found = []
    found += not_its_player(game, kind, actor, seat, data)
    proposal = game.proposal
    if kind == "ProposeEnd":
        command = meta.get("command") or {}
        if proposal is not None:
            found.append("an ending proposed while another proposal is open (rule 5.5)")
        if data.get("ending") not in ENDINGS or data.get("ending") != command.get("ending"):
            found.append(f"EndProposed's ending {data.get('ending')!r} is not one of {', '.join(ENDINGS)}, or not the "
                         "command's (rule 5.5)")
        proposal = {"seat": seat, "ending": data.get("ending"), "accepted": set()}
    elif proposal is None:
        return found + [f"a proposal to end the game {'accepted' if kind == 'AcceptEnd' else 'withdrawn'} where "
                        "none is open (rule 5.5)"]
    elif kind == "AcceptEnd" and (seat == proposal["seat"] or seat in proposal["accepted"]):
        found.append(f"{seat} accepts a proposal it made, or accepted already (rule 5.5)")
    if kind == "WithdrawEnd":
        return found
    complete = game.playing() <= proposal["accepted"] | {proposal["seat"], seat}
    types = [record["type"] for record in batch]
    ending = proposal["ending"]
    if (len(types) > 1) != complete or (complete and batch[1]["data"].get("ending") != ending):
        found.append("EndAgreed does not follow exactly the acceptance of the last seat a player plays, or names "
                     "another ending than the one proposed (rule 5.5)")
    if complete and (("GameOver" in types) != (ending == AS_IT_STANDS)):
        found.append("a game ended as it stands without GameOver in the batch, or a cancelled one with it (rule 5.5)")
    if "GameOver" in types and not str(batch[-1]["data"].get("outcome", "")).startswith(OUTCOME):
        found.append(f"the GameOver of a game ended by agreement does not say so (it begins {OUTCOME!r}) (rule 5.5)")
    return found


def ranked_as_it_stands(game: Seats, standings: list) -> list[str]:
    """Rule 5.8: a game ended as it stands ranks the seats that did not
    resign by their scores alone (equal scores share a place), or all first
    where they have no number for a score."""
    if game.agreed != AS_IT_STANDS:
        return []
    standing = [s for s in standings if s.get("seat") not in game.resigned]
    scores = [s.get("score") for s in standing]
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in scores)
    for s in standing:
        due = 1 + sum(1 for v in scores if v > s.get("score")) if numbers else 1
        if s.get("rank") != due:
            return [f"{s.get('seat')} ranks {s.get('rank')} in a game ended as it stands, where its score gives "
                    f"{due} (rule 5.8)"]
    return []
