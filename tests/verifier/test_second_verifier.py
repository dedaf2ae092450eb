"""The second verifier (tests/verifier/verify.mjs, Node.js, written from
openapi/verifying-a-game.md alone) judges every golden game and freshly
played games of all five games as VERIFIED, and refuses each tampered copy;
`boardlog audit` is run on the same copies, and the table of who caught
what is printed at the end of the run. Without `node` on PATH these tests
skip and say so."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from api.offline_audit import audit_lines
from tests.verifier import tampering
from tests.verifier.conftest import NOTES, TAMPER_TABLE

HERE = Path(__file__).resolve().parent
VERIFIER = HERE / "verify.mjs"
CHECK_VECTORS = HERE / "check_vectors.mjs"
VECTOR_FILES = [HERE / "vectors" / "randomness.json", HERE / "vectors" / "chain.json"]
GOLDEN = sorted((HERE.parent / "golden").glob("*/*.jsonl"))
NODE = shutil.which("node")
NO_NODE = "node is not installed: the second verifier did not run"
RANDOMNESS_1_NOTE = "randomness version 1: draws are checked by boardlog audit only"
EXIT_CODES = {"VERIFIED": 0, "NOT VERIFIED": 1, "NOT AUDITED": 2}


@pytest.fixture
def node() -> str:
    if NODE is None:
        NOTES.append(NO_NODE)
        pytest.skip(NO_NODE)
    return NODE


def second_verifier(lines: list[str], tmp_path: Path, name: str = "export.jsonl", extra: list[str] = ()) -> dict:
    """The verdict of verify.mjs on an export given as its lines, from its
    --json answer; its exit code must agree with the verdict."""
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    done = subprocess.run([NODE, str(VERIFIER), str(path), "--json", *extra], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout, done.stderr
    answer = json.loads(done.stdout)
    assert done.returncode == EXIT_CODES[answer["verdict"]], (done.returncode, answer["verdict"])
    return answer


def first_failure(answer: dict) -> str:
    failed = next(c for c in answer["checks"] if not c["ok"])
    at = f" @{failed['version']}" if failed["version"] is not None else ""
    return f"{failed['name']}{at}"


def boardlog_audit(lines: list[str]) -> tuple[bool, str]:
    ok, report = audit_lines(lines)
    failing = [line for line in report if "BROKEN" in line or "FAIL" in line or "NOT" in line]
    return ok, (failing[0] if failing else report[0])[:60]


def export_lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()]


# --- tamper cases of this verifier's own, beside those of
# tests/verifier/tampering.py (the last event cut off is its "standings cut
# off"): each takes the parsed lines of an export and returns them tampered.

def _is_head(line: dict) -> bool:
    return "head" in line


def _canonical(document: dict) -> bytes:
    # Section 2 of the specification, in Python's terms (Python keeps 3600.0
    # as written when it reads and writes it back).
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def rehash(events: list[dict]) -> None:
    """What a server that rewrites history does: recompute every link
    (section 3.1) so that the chain holds again."""
    previous = b""
    for event in events:
        document = {k: event[k] for k in ("data", "event_id", "metadata", "schema_version", "stream_id", "type",
                                          "version")}
        link = hashlib.sha256(previous + _canonical(document)).digest()
        event["hash"] = link.hex()
        previous = link


def _events(lines: list[dict]) -> list[dict]:
    return [line for line in lines if not _is_head(line)]


def change_a_field(lines: list[dict]) -> list[dict]:
    events = _events(lines)
    target = events[len(events) // 2]
    key = sorted(target["data"])[0] if target["data"] else None
    if key is None:
        target["data"]["tampered"] = True
    else:
        value = target["data"][key]
        target["data"][key] = value + 1 if isinstance(value, int) and not isinstance(value, bool) else (
            value + "x" if isinstance(value, str) else None)
    return lines


def swap_two_events(lines: list[dict]) -> list[dict]:
    middle = len(_events(lines)) // 2
    lines[middle], lines[middle + 1] = lines[middle + 1], lines[middle]
    return lines


def change_the_seed(lines: list[dict]) -> list[dict]:
    events = _events(lines)
    over = next(e for e in events if e["type"] == "GameOver")
    over["data"]["seed"] = hashlib.sha256(bytes.fromhex(over["data"]["seed"])).hexdigest()
    rehash(events)  # so that it is the seed's own checks that must catch it
    return lines


TAMPER_CASES = {
    "a changed field": change_a_field,
    "two events swapped": swap_two_events,
    "the seed changed (chain recomputed)": change_the_seed,
}


def tampered_copies(lines: list[str]):
    """(case, tampered lines) for this verifier's four cases and every case of
    tests/verifier/tampering.py (shared with boardlog audit's tests) that
    applies to the export."""
    parsed = [json.loads(line) for line in lines]
    for case, tamper in TAMPER_CASES.items():
        yield case, [json.dumps(line) for line in tamper(copy.deepcopy(parsed))]
    for case, tamper in tampering.CASES:
        try:
            forged, _ = tamper(copy.deepcopy(parsed))
        except tampering.NotApplicable as reason:
            yield case, f"not applicable: {reason}"
            continue
        yield case, [json.dumps(line) for line in forged]


def refuse_every_tampered_copy(name: str, lines: list[str], tmp_path: Path) -> None:
    missed = []
    for case, forged in tampered_copies(lines):
        if isinstance(forged, str):
            TAMPER_TABLE.append((name, case, forged, forged))
            continue
        answer = second_verifier(forged, tmp_path, "tampered.jsonl")
        audited_ok, audited = boardlog_audit(forged)
        node_cell = first_failure(answer) if answer["verdict"] == "NOT VERIFIED" else f"MISSED ({answer['verdict']})"
        TAMPER_TABLE.append((name, case, node_cell, "MISSED (VERIFIED)" if audited_ok else audited))
        if answer["verdict"] != "NOT VERIFIED":
            missed.append(case)
    assert missed == [], f"the second verifier did not refuse: {missed}"


# --- golden games

@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_second_verifier_verifies_every_golden_game(node, path, tmp_path):
    answer = second_verifier(export_lines(path), tmp_path)
    assert answer["verdict"] == "VERIFIED", answer
    draws = next(c for c in answer["checks"] if c["name"] == "draws")
    if answer["randomness_version"] == 1:
        assert draws["reason"] == RANDOMNESS_1_NOTE
        NOTES.append(f"golden games of randomness version 1 are VERIFIED by the second verifier; {RANDOMNESS_1_NOTE}")


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_second_verifier_refuses_every_tampered_golden_game(node, path, tmp_path):
    refuse_every_tampered_copy(f"{path.parent.name}/{path.stem}", export_lines(path), tmp_path)


def test_the_second_verifier_says_not_audited_for_an_unknown_chain_version(node, tmp_path):
    lines = [json.loads(line) for line in export_lines(GOLDEN[0])]
    lines[0]["data"]["chain_version"] = 99
    rehash(_events(lines))
    answer = second_verifier([json.dumps(line) for line in lines], tmp_path)
    assert answer["verdict"] == "NOT AUDITED"
    assert "chain_version 99" in answer["checks"][-1]["reason"]


def test_the_second_verifier_says_not_audited_for_an_unknown_randomness_version(node, tmp_path):
    lines = [json.loads(line) for line in export_lines(GOLDEN[0])]
    lines[0]["data"]["randomness_version"] = 7
    rehash(_events(lines))
    answer = second_verifier([json.dumps(line) for line in lines], tmp_path)
    assert answer["verdict"] == "NOT AUDITED"
    assert "randomness_version 7" in answer["checks"][-1]["reason"]


# --- the vectors of the specification

def test_the_second_verifiers_primitives_agree_with_the_vectors(node):
    present = [path for path in VECTOR_FILES if path.exists()]
    if not present:
        pytest.skip(f"no vector file yet ({', '.join(str(p.relative_to(HERE)) for p in VECTOR_FILES)})")
    done = subprocess.run([node, str(CHECK_VECTORS), *map(str, present)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


# --- freshly played games of all five games

class FreshGame:
    """A game played through the API to its end, exported, with the receipts
    its players' clients kept from the command answers (none where the
    server gives none) and the server's key list (None where it has none)."""

    def __init__(self, lines: list[str], receipts: list[dict], keys: dict | None):
        self.lines, self.receipts, self.keys = lines, receipts, keys


def _play_keeping_receipts(client, service, game: str, seed: int) -> FreshGame | None:
    import random

    from tests.golden.record import SPECS, Seat

    spec = SPECS[game][0]
    rng = random.Random(f"second-verifier/{game}/{seed}")
    from domain import games
    from domain.engine import resolve_options

    rules = games.get(spec.game)
    count = len(rules.seats(resolve_options(rules.options, spec.options)))
    seats = [Seat(client, f"referee-{game}-{seed}-{i}") for i in range(count)]
    receipts = []

    def keep(answer):
        receipt = (answer.json or {}).get("receipt") if answer.is_json else None
        if receipt:
            receipts.append(receipt)
        return answer

    created = keep(seats[0].post("/v1/games", json={"game": spec.game, "options": spec.options}))
    assert created.status_code == 201, created.json
    game_id = created.json["id"]
    for seat in seats[1:]:
        assert keep(seat.post(f"/v1/games/{game_id}/join")).status_code == 200
    assert keep(seats[0].post(f"/v1/games/{game_id}/start")).status_code == 200
    for _ in range(spec.max_commands):
        views = [seat.get(f"/v1/games/{game_id}/view").json for seat in seats]
        if views[0]["status"] != "active":
            break
        seat, _ = rng.choice([(s, v) for s, v in zip(seats, views) if v["seat"] in v["to_act"]])
        commands = seat.get(f"/v1/games/{game_id}/legal-commands").json
        commands = commands["commands"] if isinstance(commands, dict) else commands
        assert keep(seat.post(f"/v1/games/{game_id}/commands", json=rng.choice(commands))).status_code == 200
    else:
        return None
    service.score(uuid.UUID(game_id))
    export = client.get(f"/v1/games/{game_id}/export")
    assert export.status_code == 200
    keys = client.get("/v1/keys")
    return FreshGame(export.get_data(as_text=True).splitlines(), receipts, keys.json if keys.status_code == 200 else None)


FIVE_GAMES = ["cronberg", "coronation", "court-of-miracles", "the-coil", "runebound"]


@pytest.fixture(scope="module")
def fresh_games(app, service):
    played = {}

    def fresh(game: str) -> FreshGame:
        if game not in played:
            client = app.test_client()
            played[game] = next(g for g in (_play_keeping_receipts(client, service, game, seed)
                                            for seed in range(1, 20)) if g is not None)
        return played[game]

    return fresh


@pytest.mark.parametrize("game", FIVE_GAMES)
def test_the_second_verifier_verifies_a_freshly_played_game(node, fresh_games, game, tmp_path):
    fresh = fresh_games(game)
    extra = []
    if fresh.keys is not None:
        (tmp_path / "keys.json").write_text(json.dumps(fresh.keys))
        extra += ["--keys", str(tmp_path / "keys.json")]
    if fresh.receipts:
        (tmp_path / "receipts.json").write_text(json.dumps(fresh.receipts))
        extra += ["--receipts", str(tmp_path / "receipts.json")]
    else:
        NOTES.append("freshly played games: the server gave no receipts, so none were compared")
    answer = second_verifier(fresh.lines, tmp_path, extra=extra)
    assert answer["verdict"] == "VERIFIED", answer
    if fresh.receipts:
        assert f"{len(fresh.receipts)} receipt(s) agree" in _checks(answer)["receipts"]["reason"]


@pytest.mark.parametrize("game", FIVE_GAMES)
def test_the_second_verifier_refuses_every_tampered_fresh_game(node, fresh_games, game, tmp_path):
    refuse_every_tampered_copy(f"{game} (fresh)", fresh_games(game).lines, tmp_path)


# --- chain and randomness version 2, on a game made by hand from the
# specification (this branch's server still writes version 1)

SECTIONS_3_AND_4 = ("lines", "versions", "canonical_json", "chain", "salts", "commitment", "key", "draws",
                    "metadata", "batches", "seats", "end")


def _checks(answer: dict) -> dict:
    return {c["name"]: c for c in answer["checks"]}


def _version_2(golden: Path) -> list[dict]:
    from tests.verifier.specimen import version_2_game

    return version_2_game(export_lines(golden))


def test_the_second_verifier_checks_salts_contributions_and_draws_of_a_version_2_game(node, tmp_path):
    answer = second_verifier([json.dumps(e) for e in _version_2(GOLDEN[-1])], tmp_path)
    checks = _checks(answer)
    assert (answer["chain_version"], answer["randomness_version"]) == (2, 2)
    assert [name for name in SECTIONS_3_AND_4 if not checks[name]["ok"] or checks[name].get("skipped")] == []
    assert "1 contribution" in checks["key"]["reason"] and "53 draws" in checks["draws"]["reason"]


def _refused_by(events: list[dict], tmp_path: Path) -> str:
    return first_failure(second_verifier([json.dumps(e) for e in events], tmp_path))


def test_the_second_verifier_refuses_a_wrong_salt(node, tmp_path):
    from tests.verifier.specimen import rehash

    events = _version_2(GOLDEN[-1])
    events[9]["metadata"]["salt"] = events[10]["metadata"]["salt"]
    rehash(events)
    assert _refused_by(events, tmp_path) == "salts @10"


def test_the_second_verifier_refuses_a_draw_that_is_not_the_streams(node, tmp_path):
    from tests.verifier.specimen import rehash

    events = _version_2(GOLDEN[-1])
    drawn = [e for e in events if "draws" in e["metadata"]]
    for event in drawn:  # the whole decision lists the forged draw, as a server would write it
        (label, draws), = event["metadata"]["draws"].items()
        draws[-1][1] = (draws[-1][1] + 1) % 6
    rehash(events)
    assert _refused_by(events, tmp_path) == f"draws @{drawn[0]['version']}"


def test_the_second_verifier_refuses_a_contribution_changed_after_the_fact(node, tmp_path):
    from tests.verifier.specimen import rehash

    events = _version_2(GOLDEN[-1])
    contributed = next(e for e in events if e["type"] == "SeedContributed")
    contributed["data"]["contribution"] = contributed["metadata"]["command"]["contribution"] = "beef"
    rehash(events)  # the key changes, so the draws no longer come from it
    assert _refused_by(events, tmp_path).startswith("draws @")


def test_the_second_verifier_refuses_a_contribution_by_another_than_the_seats_holder(node, tmp_path):
    from tests.verifier.specimen import rehash

    events = _version_2(GOLDEN[-1])
    contributed = next(e for e in events if e["type"] == "SeedContributed")
    contributed["metadata"]["actor"] = tampering.STRANGER
    rehash(events)
    assert _refused_by(events, tmp_path) == f"key @{contributed['version']}"


# --- signed heads and receipts (section 6), signed here with RFC 8032's test
# key through node's own Ed25519

_SIGNER = """
const {createPrivateKey, sign} = require("node:crypto");
const key = createPrivateKey({key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"),
                                                  Buffer.from(process.argv[1], "hex")]), format: "der", type: "pkcs8"});
for (const m of require("node:fs").readFileSync(0, "utf8").split("\\n").filter(Boolean))
  console.log(sign(null, Buffer.from(m, "hex"), key).toString("hex"));
"""


def node_signer(node: str):
    def sign(message: bytes) -> str:
        from tests.verifier.specimen import TEST_KEY_SEED

        done = subprocess.run([node, "-e", _SIGNER, TEST_KEY_SEED], input=message.hex() + "\n", capture_output=True,
                              text=True, timeout=60, check=True)
        return done.stdout.strip()

    return sign


@pytest.fixture
def signed_game(node):
    from tests.verifier.specimen import with_head

    sign = node_signer(node)
    events = _version_2(GOLDEN[-1])
    return events, sign, with_head(events, sign)


def _keys_file(tmp_path: Path, public_key: str) -> Path:
    key_id = hashlib.sha256(bytes.fromhex(public_key)).hexdigest()[:16]
    path = tmp_path / "keys.json"
    path.write_text(json.dumps({"keys": [{"key_id": key_id, "algorithm": "Ed25519", "public_key": public_key,
                                          "created_at": "2026-12-01T00:00:00Z", "retired_at": None}]}))
    return path


def _verify(lines: list[dict], tmp_path: Path, *extra: str) -> dict:
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    done = subprocess.run([NODE, str(VERIFIER), str(path), "--json", *extra], capture_output=True, text=True,
                          timeout=120)
    answer = json.loads(done.stdout)
    assert done.returncode == EXIT_CODES[answer["verdict"]]
    return answer


def test_a_signed_version_2_game_is_verified_with_the_servers_keys(signed_game, tmp_path):
    from tests.verifier.specimen import TEST_PUBLIC_KEY

    _, _, export = signed_game
    answer = _verify(export, tmp_path, "--keys", str(_keys_file(tmp_path, TEST_PUBLIC_KEY)))
    assert answer["verdict"] == "VERIFIED", answer
    assert "one of the server's keys" in _checks(answer)["head"]["reason"]


def test_a_head_signed_by_a_key_the_server_does_not_list_is_refused(signed_game, tmp_path):
    _, _, export = signed_game
    answer = _verify(export, tmp_path, "--keys", str(_keys_file(tmp_path, "11" * 32)))
    assert first_failure(answer) == f"head @{export[-2]['version']}"


def test_an_export_cut_off_with_its_head_line_or_without_it_is_refused(signed_game, tmp_path):
    events, sign, export = signed_game
    assert first_failure(_verify(events[:-1], tmp_path)) == f"end @{events[-2]['version']}"
    without_standings = export[:-2] + export[-1:]  # the head line kept: it is not the last event's
    assert _checks(_verify(without_standings, tmp_path))["head"]["ok"] is False


def test_a_forged_event_with_the_chain_recomputed_is_caught_by_the_signed_head(signed_game, tmp_path):
    from tests.verifier.specimen import rehash

    events, _, export = signed_game
    forged = copy.deepcopy(events)
    forged[40]["data"]["forged"] = True
    rehash(forged)
    answer = _verify([*forged, export[-1]], tmp_path)
    assert _checks(answer)["chain"]["ok"] and first_failure(answer) == f"head @{forged[-1]['version']}"


def test_a_history_rewritten_and_signed_again_is_caught_by_the_receipts_a_player_kept(signed_game, tmp_path):
    from tests.verifier.specimen import receipt, rehash, with_head

    events, sign, _ = signed_game
    kept = [receipt(events[9], sign), receipt(events[99], sign)]
    rewritten = copy.deepcopy(events)
    rewritten[50]["data"]["forged"] = True
    rehash(rewritten)
    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps(kept))
    answer = _verify(with_head(rewritten, sign), tmp_path, "--receipts", str(receipts))  # the server signs it again
    checks = _checks(answer)
    assert checks["head"]["ok"] and first_failure(answer) == "receipts @100"
    assert "between versions 11 and 100" in checks["receipts"]["reason"]
    honest = _verify(with_head(events, sign), tmp_path, "--receipts", str(receipts))
    assert honest["verdict"] == "VERIFIED" and "2 receipt(s) agree" in _checks(honest)["receipts"]["reason"]


@pytest.mark.parametrize("spoil, why", [
    (lambda r: {k: v for k, v in r.items() if k != "signature"}, "is not {stream_id"),
    (lambda r: {**r, "stream_id": "game-00000000-0000-4000-8000-000000000000"}, "not of this game"),
    (lambda r: {**r, "key_id": "0123456789abcdef"}, "key 0123456789abcdef is unknown"),
    (lambda r: {**r, "hash": "00" * 32}, "signature does not hold"),
])
def test_a_receipt_that_cannot_be_judged_is_named_and_judges_nothing(signed_game, tmp_path, spoil, why):
    from tests.verifier.specimen import receipt

    events, sign, export = signed_game
    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps([receipt(events[3], sign), spoil(receipt(events[5], sign))]))
    answer = _verify(export, tmp_path, "--receipts", str(receipts))
    assert answer["verdict"] == "NOT AUDITED"
    assert answer["checks"][-1]["reason"].startswith("receipt 2 cannot be judged") and why in answer["checks"][-1]["reason"]


def test_a_receipt_that_cannot_be_judged_does_not_hide_a_failed_check(signed_game, tmp_path):
    events, sign, export = signed_game
    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps([{"stream_id": events[0]["stream_id"], "version": 3}]))
    answer = _verify(export[:-2] + export[-1:], tmp_path, "--receipts", str(receipts))
    assert answer["verdict"] == "NOT VERIFIED" and first_failure(answer).startswith("end @")


def test_receipts_are_compared_with_the_links_the_export_gives_not_the_hashes_it_states(signed_game, tmp_path):
    from tests.verifier.specimen import receipt

    events, sign, export = signed_game
    receipts = tmp_path / "receipts.json"
    receipts.write_text(json.dumps([receipt(events[30], sign)]))
    edited = copy.deepcopy(export)
    edited[30]["data"]["edited"] = True  # its hash member left as it was
    checks = _checks(_verify(edited, tmp_path, "--receipts", str(receipts)))
    assert checks["chain"]["version"] == "31" and checks["receipts"]["version"] == "31"


# --- games through every seat-life decision (invites, leaving, bots,
# abandonment, a replacement, a resignation a bot plays on, a rematch; time
# banks), as tests/api/test_audit_of_seat_life.py plays them for boardlog audit

def _summary(player, game_id):
    return player.get(f"/v1/games/{game_id}").json


def _play_with_bots(service, game_id, holders, rng, until=lambda summary: False):
    anyone = next(iter(holders.values()))
    for _ in range(3000):
        summary = _summary(anyone, game_id)
        if summary["status"] != "active" or until(summary):
            return summary
        if service.play_bots(uuid.UUID(game_id), summary["version"]):
            continue
        player = holders[sorted(summary["to_act"])[0]]
        answer = player.act(game_id, rng.choice(player.legal(game_id)))
        assert answer.status_code == 200, answer.json
    raise AssertionError("the game did not end")


def _seat_life_game(client, service) -> list[str]:
    import random

    from tests.api.conftest import Player

    tag = uuid.uuid4().hex[:6]
    ada, bob, cy, dan, eve = (Player(client, f"referee-{tag}-{name}") for name in ("ada", "bob", "cy", "dan", "eve"))
    rng = random.Random(4)
    game_id = ada.create("cronberg", {"players": 4, "rounds": 1, "visibility": "private", "abandon_after": 1,
                                      "turn_seconds": 3600, "deadline_per_seat": False, "bots": {"p4": "random"}})
    for player in (bob, cy):
        code = ada.post(f"/v1/games/{game_id}/invites", json={}).json["code"]
        assert player.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    assert cy.post(f"/v1/games/{game_id}/leave").status_code == 200
    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p3"}).json["code"]
    assert dan.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    holders = {"p1": ada, "p2": bob, "p3": dan}
    summary = _play_with_bots(service, game_id, holders, rng, until=lambda s: s["to_act"] == ["p2"])
    assert service.fire_deadline(uuid.UUID(game_id), summary["version"])  # one timeout abandons p2
    code = ada.post(f"/v1/games/{game_id}/invites", json={"seat": "p2"}).json["code"]
    assert eve.post(f"/v1/games/{game_id}/invites/redeem", json={"code": code}).status_code == 200
    holders["p2"] = eve
    _play_with_bots(service, game_id, holders, rng, until=lambda s: "p3" not in s["to_act"])
    assert dan.post(f"/v1/games/{game_id}/resign").status_code == 200  # a bot plays p3 on
    assert _play_with_bots(service, game_id, holders, rng)["status"] == "scoring"
    assert service.score(uuid.UUID(game_id))
    assert ada.post(f"/v1/games/{game_id}/rematch").status_code == 201
    return client.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()


def _time_bank_game(client, service) -> list[str]:
    import random

    from tests.api.conftest import Player

    tag = uuid.uuid4().hex[:6]
    ada, bob = Player(client, f"referee-{tag}-ada"), Player(client, f"referee-{tag}-bob")
    game_id = ada.create("the-coil", {"players": 2, "time_bank_seconds": 3600, "turn_seconds": 600})
    assert bob.post(f"/v1/games/{game_id}/join", json={}).status_code == 200
    assert ada.post(f"/v1/games/{game_id}/start").status_code == 200
    _play_with_bots(service, game_id, {"p1": ada, "p2": bob}, random.Random(2), until=lambda s: s["version"] > 20)
    assert bob.post(f"/v1/games/{game_id}/resign").status_code == 200
    assert service.score(uuid.UUID(game_id))
    return client.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()


SEAT_LIFE_GAMES = {"seat life": _seat_life_game, "time banks": _time_bank_game}


@pytest.fixture(scope="module")
def seat_life_games(app, service):
    played = {}

    def game(name: str) -> list[str]:
        if name not in played:
            played[name] = SEAT_LIFE_GAMES[name](app.test_client(), service)
        return played[name]

    return game


@pytest.mark.parametrize("name", SEAT_LIFE_GAMES)
def test_the_second_verifier_verifies_a_game_through_seat_life_decisions(node, seat_life_games, name, tmp_path):
    lines = seat_life_games(name)
    answer = second_verifier(lines, tmp_path)
    assert answer["verdict"] == "VERIFIED", answer
    kinds = {json.loads(line)["metadata"]["command"]["type"] for line in lines}
    assert kinds & {"ResignSeat", "AbandonSeat", "RedeemInvite", "ComputeClocks"}


@pytest.mark.parametrize("name", SEAT_LIFE_GAMES)
def test_the_second_verifier_refuses_every_tampered_seat_life_game(node, seat_life_games, name, tmp_path):
    refuse_every_tampered_copy(f"{name} (fresh)", seat_life_games(name), tmp_path)


# --- without node

def test_without_node_the_second_verifiers_tests_skip_and_say_so(tmp_path):
    import os
    import sys

    path = str(tmp_path)  # nothing on PATH (python is named by its full path), so no node
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(Path(__file__)), "-q", "-rs", "-p", "no:cacheprovider",
         "-k", f"verifies_every_golden_game and {GOLDEN[0].parent.name}/{GOLDEN[0].stem}"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PATH": path}, cwd=HERE.parent.parent)
    assert "SKIPPED [1]" in done.stdout, done.stdout + done.stderr
    assert NO_NODE in done.stdout
