"""The OpenAPI document as a contract: every operation is named and declares
every problem it may answer; every problem kind the code raises is registered."""

from __future__ import annotations

import re
from pathlib import Path

from api.http import problems
from api.processes.openapi_doc import document

ROOT = Path(__file__).resolve().parents[2]
METHODS = {"get", "post", "put", "patch", "delete"}


def _operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_every_operation_has_a_unique_camel_case_operation_id():
    spec = document()
    ids = [op.get("operationId") for _, _, op in _operations(spec)]
    missing = [f"{m.upper()} {p}" for p, m, op in _operations(spec) if not op.get("operationId")]
    assert not missing, f"operations without @blp.doc(operationId=...): {missing}"
    assert len(ids) == len(set(ids)), "two operations share an operationId"
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z0-9]*)+", op_id) for op_id in ids), ids


def test_every_error_response_names_its_registered_problem_types():
    spec = document()
    known = {kind.uri for kind in problems.REGISTRY.values()}
    misses = []
    for path, method, operation in _operations(spec):
        errors = {status: r for status, r in operation["responses"].items() if status.startswith(("4", "5"))}
        assert errors, f"{method.upper()} {path} declares no error response"
        for status, response in errors.items():
            types = response.get("x-problem-types")
            if not types:
                misses.append(f"{operation.get('operationId')} ({method.upper()} {path}) {status}")
                continue
            assert set(types) <= known, f"{method.upper()} {path} {status}: unregistered {set(types) - known}"
            assert all(problems.REGISTRY[t.rsplit('/', 1)[1]].status == int(status) for t in types)
            assert "Problem" in response["content"]["application/problem+json"]["schema"]["$ref"]
    assert not misses, ("these error responses name no problem type: add @declare(blp, \"<slug>\", ...) "
                        "(api/http/contract.py) beside them, registering new slugs in api/http/problems.py:\n"
                        + "\n".join(misses))


def _raised_kinds() -> set[str]:
    kinds = set()
    for source in [*ROOT.joinpath("api").rglob("*.py"), *ROOT.joinpath("workers").rglob("*.py")]:
        text = source.read_text()
        kinds |= set(re.findall(r"\bkind\s*=\s*\"([a-z0-9-]+)\"", text))
        for call in re.findall(r"declare\(blp,([^)]*)\)", text):
            kinds |= set(re.findall(r"\"([a-z0-9-]+)\"", call))
    return kinds


def test_every_problem_kind_the_code_names_is_registered():
    kinds = _raised_kinds()
    assert {"not-your-turn", "game-not-found", "idempotency-key-reused"} <= kinds
    assert not kinds - set(problems.REGISTRY), "register these in api/http/problems.py"


def test_one_cause_one_type_uri_whatever_the_python_version():
    uris = [kind.uri for kind in problems.REGISTRY.values()]
    assert len(uris) == len(set(uris))
    assert problems.for_status(413).slug == "body-too-large"


def test_the_problem_types_are_served(client):
    served = client.get("/v1/problems").json["problems"]
    assert {p["slug"] for p in served} == set(problems.REGISTRY)
    assert all(p["type"].endswith("/" + p["slug"]) for p in served)


def test_spectator_access_is_declared_as_optional_auth():
    paths = document()["paths"]
    assert {} in paths["/v1/games/{game_id}/view"]["get"]["security"]
    assert {} in paths["/v1/games/{game_id}/events"]["get"]["security"]
    assert {} not in paths["/v1/games/{game_id}/commands"]["post"]["security"]


def test_the_problem_an_error_carries_is_one_its_operation_declares(client, players):
    spec = client.get("/v1/openapi.json").json
    ada, bob = players(2)
    game_id = ada.create("cronberg", {"players": 2})
    cases = [
        ("get", "/v1/games/{game_id}", "/v1/games/6a1e8e34-0000-4000-8000-000000000000", {}, None),
        ("get", "/v1/rules/{game}", "/v1/rules/chess", {}, None),
        ("post", "/v1/games/{game_id}/commands", f"/v1/games/{game_id}/commands", ada.auth, {"type": "PlaceMember"}),
        ("post", "/v1/games/{game_id}/commands", f"/v1/games/{game_id}/commands", bob.auth, {"type": "EndTurn"}),
        ("post", "/v1/games/{game_id}/start", f"/v1/games/{game_id}/start", ada.auth, None),
        ("get", "/v1/games/{game_id}/legal-commands", f"/v1/games/{game_id}/legal-commands", {}, None),
        ("get", "/v1/games/{game_id}/legal-commands", f"/v1/games/{game_id}/legal-commands",
         {"Authorization": "Bearer nope"}, None),
        ("get", "/v1/games/{game_id}/export", f"/v1/games/{game_id}/export", {}, None),
    ]
    for method, template, url, headers, body in cases:
        response = getattr(client, method)(url, headers=headers, json=body)
        declared = spec["paths"][template][method]["responses"][str(response.status_code)]
        assert response.mimetype == "application/problem+json"
        assert response.json["type"] in declared["x-problem-types"], (url, response.json)
        assert response.json["title"] == problems.REGISTRY[response.json["type"].rsplit("/", 1)[1]].title


def test_a_command_of_another_game_is_refused_naming_this_games_commands(client, players):
    (ada,) = players(1)
    game_id = ada.create("cronberg", {"players": 2})
    answer = ada.act(game_id, {"type": "MoveLind", "to": 3})
    assert answer.status_code == 422
    assert answer.json["type"].endswith("/unknown-command-type")
    assert "'MoveLind' is not a Cronberg command" in answer.json["detail"]
    assert "PlaceMember" in answer.json["detail"]
    assert "PlaceMember" in ada.act(game_id, {"type": "Nonsense"}).json["detail"]


def test_the_served_document_is_valid_openapi(client):
    from openapi_spec_validator import validate

    spec = client.get("/v1/openapi.json").json
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def _refs(node, found: set) -> set:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                found.add(value.rsplit("/", 1)[1])
            else:
                _refs(value, found)
    elif isinstance(node, list):
        for item in node:
            _refs(item, found)
    return found


def test_every_schema_is_reachable_from_an_operation():
    spec = document()
    schemas = spec["components"]["schemas"]
    reached = _refs(spec["paths"], set()) | _refs(spec["components"].get("responses", {}), set())
    frontier = set(reached)
    while frontier:
        frontier = _refs([schemas.get(name, {}) for name in frontier], set()) - reached
        reached |= frontier
    # flask-smorest's own, used by the X-Pagination header of a paginated endpoint
    assert set(schemas) - reached <= {"PaginationMetadata"}
    for game in ("Coronation", "Cronberg", "CourtOfMiracles", "TheCoil", "Runebound"):
        assert {f"{game}View", f"{game}Command", f"{game}Event", f"{game}Options"} <= reached


def _nodes(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def test_nullable_objects_keep_their_fields_and_no_enum_has_a_null_member():
    schemas = document()["components"]["schemas"]
    for node in _nodes(schemas):
        assert "nullable" not in node, node  # an OpenAPI 3.0 keyword; 3.1 writes {type: null}
        assert None not in node.get("enum", []), node
        branches = node.get("anyOf", [])
        if {"type": "null"} in branches:
            assert all(branch.get("$ref") or branch.get("type") not in (None, "object") or branch.get("properties")
                       for branch in branches if branch != {"type": "null"}), node
    lind = schemas["CoronationView"]["properties"]["lind"]
    assert lind["anyOf"] == [{"$ref": "#/components/schemas/CoronationLindSecret"}, {"type": "null"}]
    assert schemas["Audit"]["properties"]["rerun"]["anyOf"][0] == {"$ref": "#/components/schemas/Rerun"}
    winner = schemas["CoronationView"]["properties"]["winner"]
    assert winner["anyOf"] == [{"type": "string", "enum": ["lind", "detectives"]}, {"type": "null"}]


def test_declare_and_a_plain_alt_response_for_the_same_status_merge():
    from flask import Flask
    from flask.views import MethodView
    from flask_smorest import Api, Blueprint

    from api.http.contract import ProblemsPlugin, declare

    app = Flask("probe")
    app.config.update(API_TITLE="probe", API_VERSION="1", OPENAPI_VERSION="3.1.0")
    api = Api(app, spec_kwargs={"extra_plugins": [ProblemsPlugin()]})
    blp = Blueprint("probe", __name__, url_prefix="/v1/probe")

    @blp.route("/<game_id>")
    class Probe(MethodView):
        @blp.doc(operationId="probeGame")
        @blp.alt_response(409, description="already over")
        @declare(blp, "game-not-over")
        def get(self, game_id):
            return {}

    api.register_blueprint(blp)
    responses = api.spec.to_dict()["paths"]["/v1/probe/{game_id}"]["get"]["responses"]
    assert responses["409"]["x-problem-types"] == ["https://boardlog.dev/problems/game-not-over"]
    assert responses["409"]["description"].startswith("already over\n\nA problem document")
    assert responses["404"]["x-problem-types"] == ["https://boardlog.dev/problems/game-not-found"]
    assert "application/problem+json" in responses["409"]["content"]
