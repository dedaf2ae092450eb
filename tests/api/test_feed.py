import random

from tests.api.conftest import play_until_over, started_game


def test_the_feed_pages_through_every_event_in_order(players):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    version = ada.view(game_id).json["version"]
    seen, after = [], 0
    while True:
        page = ada.get(f"/v1/games/{game_id}/events", query_string={"after": after, "limit": 2}).json
        if not page["events"]:
            break
        seen += [event["version"] for event in page["events"]]
        after = page["next_after"]
    assert seen == list(range(1, version + 1))


def test_the_feed_starts_with_the_public_lobby_events(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    events = client.get(f"/v1/games/{game_id}/events").json["events"]
    assert [e["type"] for e in events[:4]] == ["GameCreated", "SeatTaken", "SeatTaken", "PlayersSeated"]
    assert "seed" not in events[0]["data"] and len(events[0]["data"]["seed_sha256"]) == 64


def test_the_feed_never_shows_the_command_metadata(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    for event in client.get(f"/v1/games/{game_id}/events").json["events"]:
        assert set(event) == {"version", "type", "recorded_at", "seat", "decided_at", "data", "text", "receipt"}
        assert set(event["receipt"]) == {"stream_id", "version", "hash", "key_id", "public_key", "signature"}


def test_the_seed_is_published_when_the_game_ends(players, client):
    ada, bob = players(2)
    game_id = started_game([ada, bob])
    play_until_over([ada, bob], game_id, random.Random(5))
    events = client.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).json["events"]
    ended = [e for e in events if e["type"] == "GameOver"]
    assert len(ended) == 1 and len(ended[0]["data"]["seed"]) == 64


def test_every_event_of_the_feed_comes_with_its_sentence_made_from_what_the_viewer_sees(players, client):
    from domain import words

    ada, bob = players(2)
    game_id = started_game([ada, bob], "court-of-miracles", {"players": 2})
    naming = _naming(game_id, ada, bob)
    for viewer in (ada, bob, client):
        for event in viewer.get(f"/v1/games/{game_id}/events").json["events"]:
            assert event["text"] == naming.say(words.tell("court-of-miracles", event["data"])), event
    ada_drew = [e["text"] for e in ada.get(f"/v1/games/{game_id}/events").json["events"] if e["type"] == "PlotsDrawn"]
    spectator = [e["text"] for e in client.get(f"/v1/games/{game_id}/events").json["events"] if e["type"] == "PlotsDrawn"]
    assert len(ada_drew) == len(spectator) == 2 and ada_drew != spectator
    assert all(":" not in text for text in spectator)  # a spectator is told how many cards, not which


def test_the_command_answer_tells_each_new_event_in_words(players):
    from domain import words

    ada, bob = players(2)
    game_id = started_game([ada, bob])
    actor = next(p for p in (ada, bob) if p.view(game_id).json["seat"] in p.view(game_id).json["to_act"])
    answer = actor.act(game_id, actor.legal(game_id)[0]).json
    assert answer["events"] and len(answer["texts"]) == len(answer["events"])
    assert answer["texts"] == [_naming(game_id, ada, bob).say(words.tell("cronberg", event)) for event in answer["events"]]


def _naming(game_id, *seated):
    """The game's sentences as the API names players in them: each seat by its holder's name, each player id too."""
    from api.service.player_names import Naming

    return Naming(seats=seated[0].view(game_id).json["names"], players={p.id: p.name for p in seated})
