"""What each field of the engine's own events means (domain.session's
ENGINE_EVENTS: creation, seats, the lifecycle, the end), for the API's
document: "field" for that name in every engine event, or "Type.field" for
one event's (which wins). A game's own are its ``Game.field_descriptions``."""

# Seats are the game's own names for its roles (GameCreated's `seats`, such
# as p1 or lind); players are the ids POST /v1/players returned (UUIDs).
SEAT = "the seat, one of GameCreated's `seats` (such as p1, or lind in Coronation)"
PLAYER = "the player's id (a UUID, as POST /v1/players returned it and GET /v1/players/me shows)"
WHEN = "(ISO 8601, UTC)"

ENGINE_FIELD_DESCRIPTIONS: dict[str, str] = {
    # The fields many events share.
    "seat": SEAT,
    "player": PLAYER,
    # Creation: the game as it is recorded, for ever.
    "GameCreated.game": "the game's name, as GET /v1/rules lists it (such as cronberg)",
    "GameCreated.options": "every option the game was created with, resolved (those left out hold their defaults): "
                           "the game's own and the engine's (turn_seconds, visibility, abandon_after, the clocks...), "
                           "as `{Game}Options` describes them, plus outcome_follows_standings and no_abort_once_dealt, "
                           "which the server records itself (a game created before an option existed lacks it); the seats given to bots are not "
                           "here but in BotSeated events",
    "GameCreated.seats": "the game's seats, in the game's order, named by the game (p1, p2... or lind, "
                         "detective-1...); they follow from the options alone",
    "GameCreated.host": "the id of the player who created the game and hosts its lobby (a UUID); SeatLeft's "
                        "`new_host` may hand it on",
    "GameCreated.seed_sha256": "the server's commitment to the game's secret seed: the SHA-256 of its 32 bytes, 64 "
                               "lowercase hex digits; GameOver's `seed` is checked against it "
                               "(verifying-a-game.md, 4.1)",
    "GameCreated.rules_version": "the version of the game's rules the game is played under, for ever "
                                 "(GET /v1/rules/{game} lists those this server plays)",
    "GameCreated.data_files": "each data file those rules read (such as board.json), by name, with the SHA-256 of its "
                              "bytes (64 hex digits); GET /v1/rules/{game}/data/{sha256} serves that very file",
    "GameCreated.chain_version": "how the game's hashed documents are written: 1 plain, 2 with a salt in every "
                                 "event's metadata and a signed head (verifying-a-game.md, 1)",
    "GameCreated.randomness_version": "how the game's draws are taken: 1 CPython's Mersenne Twister, 2 HMAC-SHA256 "
                                      "with the players' contributions and every draw listed (verifying-a-game.md, 4)",
    # The lobby.
    "SeatTaken.seat": "the seat taken, one of GameCreated's `seats`",
    "SeatTaken.player": "the id of the player now holding it (a UUID): the host at creation, then each who joins "
                        "or redeems an invite",
    "SeatLeft.seat": "the seat left, free again",
    "SeatLeft.player": "the id of the player who left it (a UUID)",
    "SeatLeft.new_host": "the id of the player who hosts the lobby from now on (the first other seated player), "
                         "when the host left; null when the host did not change (or left an empty lobby, which "
                         "cancels the game)",
    "SeedContributed.seat": "the seat that contributed; one contribution per seat, which it keeps if its player "
                            "leaves",
    "SeedContributed.contribution": "the bytes the seat's player chose, in lowercase hex: 2 to 128 digits "
                                    "(1 to 64 bytes)",
    "GameCancelled.reason": "why, in an English sentence (such as \"the host left an empty lobby\")",
    "PlayersSeated.players": "the player holding each seat, seat -> player id (a UUID); a seat a bot plays "
                             "(BotSeated) is not in it",
    "BotSeated.seat": "the seat the bot plays, given to it at creation (the `bots` option); never the host's",
    "BotSeated.kind": "the bot's kind, one of those GET /v1/rules/{game} lists (`random` for every game)",
    # Deadlines and clocks.
    "TurnTimedOut.seat": "the seat whose deadline passed; the server plays its turn with the game's timeout "
                         "command, whose events follow",
    "TurnTimedOut.deadline_version": "the game's version when the deadline passed: the timeout's command was decided "
                                     "on the game as it stood there",
    "ClocksComputed.at": f"when the clocks were computed {WHEN}: the moment of the decision just recorded",
    "ClocksComputed.banks": "each seat's time bank as of `at`, in seconds (fractions kept), seat -> seconds; an "
                            "empty object in a game without time banks (time_bank_seconds null)",
    "ClocksComputed.since": f"since when each seat to act has been to act {WHEN}, seat -> time: its bank and its "
                            "per-seat deadline run from then (moved later by the length of any pause during its turn, so that "
                            "the deadline keeps what was left of it); a seat not to act, or away, is not in it",
    "SeatAway.seat": "the seat whose player is away; no deadline runs for it and its bank stands still",
    "SeatAway.since": f"when the absence began {WHEN}",
    "SeatAway.until": f"when the absence ends {WHEN}; SeatBack follows then, or sooner if the player acts",
    "SeatBack.seat": "the seat whose absence is over; its deadlines and bank run again from now",
    # Leaving a running game.
    "SeatResigned.seat": "the seat that resigned; it ranks last, unscored",
    "SeatResigned.player": "the id of the player who resigned it (a UUID)",
    "SeatResigned.bot": "the bot kind that plays the seat's turns from now on; null when the game needs none "
                        "(it ends, or the seat's pieces went to other seats)",
    "GameAborted.seat": "the seat whose player aborted the game",
    "GameAborted.player": "the id of the player who aborted it (a UUID)",
    "SeatAbandoned.seat": "the seat abandoned: its player missed too many turns in a row",
    "SeatAbandoned.player": "the id of the player who held it (a UUID); he sees what a spectator sees from now on, "
                            "unless he takes the seat back by an invite",
    "SeatAbandoned.timeouts": "how many turns in a row the seat timed out, at least the game's abandon_after option",
    "SeatAbandoned.bot": "the bot kind that plays the seat from now on (the host may invite a replacement)",
    # Invites and replacements.
    "InviteIssued.seat": "the seat the code is for: in the lobby a free seat, or null for whichever seat is free "
                         "when it is redeemed; once the game runs, a seat a bot plays, which the redeemer takes over",
    "code_sha256": "the SHA-256 of the invite code, 64 lowercase hex digits; the code itself is shown once, to the "
                   "host who issued it, and never recorded",
    "InviteRedeemed.player": "the id of the player who redeemed the code (a UUID); SeatTaken or SeatReplaced follows",
    "SeatReplaced.seat": "the seat that changed hands",
    "SeatReplaced.player_before": "the id of the player who held the seat before (a UUID: the vanished player of an "
                                  "abandoned seat); null for a seat given to a bot at creation",
    "SeatReplaced.player": "the id of the player who holds the seat from now on (a UUID); he sees its whole past",
    # Rematches.
    "RematchInvited.of_game": "the id of the game this one is a rematch of (a UUID, as in /v1/games/{game_id})",
    "RematchInvited.invited": "the seats kept for the old game's players, seat -> player id (a UUID): only that "
                              "player may take the seat",
    "RematchCreated.game_id": "the id of the rematch (a UUID, as in /v1/games/{game_id})",
    # Pauses.
    "PauseAsked.seat": "the seat whose player asks to pause",
    "PauseAsked.player": "the id of the player who asks (a UUID)",
    "GameResumed.seat": "the seat whose player resumed the game",
    "GameResumed.player": "the id of the player who resumed it (a UUID)",
    # Time given.
    "TimeGiven.seat": "the seat whose player gives time",
    "TimeGiven.player": "the id of the player who gives it (a UUID)",
    "TimeGiven.to_seat": "the seat given the time: another seat, to act now",
    "TimeGiven.seconds": "how much: its deadline moves that much later and its bank grows by it; a seat gives at "
                         "most a day in a game (domain.lifecycle.give)",
    # Ending by agreement.
    "EndProposed.seat": "the seat whose player proposes ending the game (the proposal counts as its acceptance)",
    "EndProposed.player": "the id of the player who proposes it (a UUID)",
    "EndProposed.ending": "cancelled (no result) or as-it-stands (ranked by the game's own score as it is now, "
                          "equal scores sharing a place)",
    "EndAccepted.seat": "the seat whose player accepts the open proposal",
    "EndAccepted.player": "the id of the player who accepts it (a UUID)",
    "EndWithdrawn.seat": "the seat whose player withdraws (its proposer) or declines (another seat) the open proposal",
    "EndWithdrawn.player": "the id of that player (a UUID)",
    "EndAgreed.ending": "the ending every seat a player plays accepted (bots accept at once): cancelled, or "
                        "as-it-stands (GameOver follows in the same batch)",
    # Takebacks.
    "TakebackAsked.seat": "the seat asking to take back its last decision",
    "TakebackAsked.player": "the id of the player who asks (a UUID)",
    "TakebackAsked.version": "the game's version just before the decision to take back (its events came after it): "
                             "the version the game returns to if every other seat accepts",
    "TakebackAccepted.seat": "the seat that accepts",
    "TakebackAccepted.player": "the id of the player who accepts (a UUID)",
    "TakebackAccepted.version": "the version the game returns to, as in the TakebackAsked it answers",
    "TakebackRefused.seat": "the seat that refuses; the request is over",
    "TakebackRefused.player": "the id of the player who refuses (a UUID)",
    "TakenBack.version": "the version the game is back at: its state is as it was there (the events after it stay "
                         "in the log)",
    # The end.
    "GameOver.outcome": "the result in an English sentence, such as \"p1 wins with 42 points\"",
    "GameOver.seed": "the game's secret seed, published now: 64 lowercase hex digits (32 bytes), whose SHA-256 is "
                     "GameCreated's `seed_sha256`; with it anyone can re-run every draw of the game",
    "GameScored.standings": "the final standings, a seat each (typed per game by `{Game}Standing`)",
}
