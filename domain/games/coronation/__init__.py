"""Coronation: Doctor Lind moves in secret across 92 locations of 1896 Moscow
while five detectives, run by 1-5 detective seats, follow his trail.

Decisions made where the rulebook and brief are silent:
- Seats are "lind" and "detective-1".."detective-N" (option detective_seats,
  1-5). Characters are shared out by lot (recorded in GameStarted) in the
  rulebook's table: 5; 3x2; 2x2x1; 2x1x1x1; 1x1x1x1x1.
- Setup: the detective seats place every detective (any location; detectives
  may share one) and, with equipment "choose", give each detective five cards
  from the deck, listed in deck order; then Lind appears, then moves.
- A detective holding the instrument a trap names always defuses it (he
  discards the instrument); without it he suffers it. A trap acts once.
  (Brief: "A detective holding the named instrument defuses the trap"; the
  rulebook: suffering is "could not avoid it", i.e. the instrument is absent.)
- Trap effects: "lose-next-action" (the detective is skipped in the next turn)
  or "discard-ticket" (he discards a cab ticket if he has one).
- The card Lind leaves on moving on lies on the route card he was on (the
  last route card). A hide puts the turn-skip card there and adds a decoy
  card; the next card Lind leaves then lies on the decoy. A detective who
  enters a location where Lind hid reveals that card and, following the
  turn-skip card, the decoy card(s) after it (shown as "a hide" without
  location) and the card on them; a trap there acts.
- The extraordinary movement is always offered after an extraordinary trap is
  suffered (Lind may decline, and must when no foot move is open). It
  replaces the last route card (a decoy too), sets no trap, obeys no-revisit
  and never-onto-a-detective, and steals the jewel of the location left.
- Lind's card count is public, so whether a card lies on each route card he
  has left is public too; which card it is, is not.
- Information gathering: on the action right after entering a special
  location, holding its instrument, while the route card four places before
  the last one exists and is closed; it reveals that card's location only
  ("a hide" for a decoy). Legality never depends on hidden facts.
- Rules version 2 (the newest): a location where Lind dropped a decoy stays
  closed to him for the rest of the game, even after an extraordinary
  movement took its card off the table. Under version 1 (games created
  before it) he may enter it again once the card has left the table.
- A jewel is taken once: leaving a location whose jewel was taken takes none.
- Detectives never use the underground. Lind with no legal action at the
  start of his turn is caught (LindCaught with no detective).
- The server keeps Lind's route and applies every reveal itself, so the
  rulebook's "technical defeat" (Lind failing to reveal a visited card) and
  his showing the crowned cards on a jewel victory need no command.
- Timeouts: a legal random action, drawn by kind first (type, detective,
  way, trap or not); a Lind who could move hides only one time in ten.
- Leaving the game: Lind resigning ends it at once, and the detectives win
  (LindResigned). A detective seat resigning hands its detectives to the
  detective seats still playing, dealt in seat order (DetectivesHandedOver),
  and is never to act again; the last detective seat resigning leaves Lind
  the last seat standing, and he wins at once. A resigned seat ranks last.
- Board and card stand-ins live in board.json and cards.json beside this
  module, each file naming its assumptions.
"""

from ...kit import Traits
from ...kit.assemble import assemble

RULES = assemble(
    __name__,
    name="coronation",
    title="Coronation",
    ranking=("Doctor Lind plays alone against the detectives, who win or lose together: the winning side shares "
             "first place and the other side shares the next."),
    # Its score is only who won: a game ended by agreement as it stands has no leader.
    score_as_it_stands=False,
    min_seats=2,
    max_seats=6,
    # Several detective seats act at once (setup, the detectives' turn); setup
    # draws the characters and the equipment; Lind's location and route are
    # hidden from every other seat; the detective seats win or lose together.
    traits=Traits(simultaneous=True, chance=True, hidden_information=True, teams=True),
)
