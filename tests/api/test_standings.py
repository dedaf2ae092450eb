"""The end of a game: standings come in rank order whatever order the game
scored its seats in, and the catalogue says how each game ranks and breaks
ties, for a frontend to say beside a tie."""

import random
import uuid

from tests.api.conftest import play_until_over, started_game


def test_the_standings_of_a_view_are_in_rank_order_even_when_the_game_scored_its_seats_otherwise(
        players, service, client):
    # Given finished games of Cronberg, which records its standings in seat order, until one whose winner is not p1
    for seed in range(6):
        ada, bob = players(2)
        game_id = started_game([ada, bob])
        play_until_over([ada, bob], game_id, random.Random(seed))
        assert service.score(uuid.UUID(game_id))
        events = client.get(f"/v1/games/{game_id}/events", query_string={"limit": 1000}).json["events"]
        recorded = next(e for e in events if e["type"] == "GameScored")["data"]["standings"]
        if [s["rank"] for s in recorded] != sorted(s["rank"] for s in recorded):
            break
    else:
        raise AssertionError("no game of six had its standings recorded out of rank order")
    # When its players and a spectator view it
    for viewer in (ada, bob, client):
        standings = viewer.get(f"/v1/games/{game_id}/view").json["standings"]
        # Then the standings come in rank order, the game's seat order kept between equals
        assert standings == sorted(recorded, key=lambda s: s["rank"])


def test_every_game_of_the_catalogue_says_in_a_sentence_how_it_ranks_and_breaks_ties(client):
    games = client.get("/v1/rules").json["games"]
    assert games
    for rules in games:
        assert rules["ranking"].endswith(".") and len(rules["ranking"].split()) > 8, rules["name"]
    rankings = {rules["name"]: rules["ranking"] for rules in games}
    assert "initiative" in rankings["the-coil"] and "neighbourhoods" in rankings["court-of-miracles"]
    assert "share" in rankings["cronberg"]
