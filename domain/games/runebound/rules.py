"""The Rules object of Runebound: Crown of the Elder Kings (on a compact Runebound core)."""

from __future__ import annotations

from .bot import BOTS
from .words import SENTENCES

import random

from ...engine import EVERYONE, IllegalCommand, Option, Rules, Standing, not_your_turn, rank_by
from . import data
from . import messages as m
from .builder import Builder
from .combat import can_defend, can_retreat, fight_card, fight_duel, return_card
from .endgame import finish_placing, place_vassal
from .evolve import evolve
from .legal import legal_commands, timeout_command, to_act
from .state import State
from .turn import attempt_adventure, begin_turn, choose_hero, buy, end_turn, gain_experience, heal, move, use_item
from .views import view, visible

TURN_STEPS = ("move", "adventure", "experience")


class RuneboundRules(Rules):
    bots = BOTS
    sentences = SENTENCES
    name = "runebound"
    title = "Runebound: Crown of the Elder Kings"
    min_seats = 2
    max_seats = 6
    options = (
        Option("players", "int", 3, "number of heroes", minimum=2, maximum=6),
        Option("choose_heroes", "bool", True,
               "players choose their heroes in seat order; off: heroes are dealt at random"),
        Option("doom_rounds", "int", 0,
               "stand-in doom limit, not in the rulebook: if nobody became Elder King after this many "
               "rounds, Vorakesh raises Margath and nobody wins; 0 (the default) means no limit",
               minimum=0, maximum=200),
    )
    commands = m.COMMANDS
    events = m.EVENTS

    def seats(self, options):
        return tuple(f"p{i}" for i in range(1, int(options.get("players", 3)) + 1))

    def setup(self, seats, options, rng: random.Random):
        choose = bool(options.get("choose_heroes", True))
        heroes = () if choose else tuple(rng.sample(list(data.HEROES), len(seats)))
        decks = {}
        for name in data.DECK_NAMES:
            cards = list(data.deck_cards(name))
            rng.shuffle(cards)
            if name == "red":
                cards.append(data.MARGATH)  # Lord Margath is the last red card
            decks[name] = tuple(cards)
        started = m.GameStarted(seats=tuple(seats), heroes=heroes, decks=decks, counters=data.WILDS,
                                market=tuple(data.MARKET), doom_rounds=int(options.get("doom_rounds", 0)))
        b = Builder(evolve(None, started), rng)
        if not choose:
            begin_turn(b, seats[0], 1)
        return [started, *b.events]

    def evolve(self, state, event):
        return evolve(state, event)

    def to_act(self, state):
        return to_act(state)

    def legal_commands(self, state, seat):
        return legal_commands(state, seat)

    def on_timeout(self, state, seat, rng):
        return timeout_command(state, seat)

    def view(self, state, viewer):
        return view(state, viewer)

    def visible(self, event, viewer):
        if viewer == EVERYONE:
            return event.to_json()
        return visible(event, viewer)

    def outcome(self, state):
        return state.result if state is not None else None

    def score(self, state: State):
        """The last Elder King first, then the others by how long they lasted in the
        Endgame (later eliminated ranks higher); if the doom limit ended the game,
        nobody wins and all share one rank."""
        eliminated = state.endgame.eliminated if state.endgame else ()
        scores = {}
        for hero in state.heroes:
            if hero.seat == state.winner:
                scores[hero.seat] = (2, 0, hero.level)
            elif hero.seat in eliminated:
                scores[hero.seat] = (1, eliminated.index(hero.seat), hero.level)
            else:
                scores[hero.seat] = (1, len(eliminated), hero.level) if state.winner else (0, 0, 0)
        ranks = rank_by(scores)
        return [Standing(hero.seat, ranks[hero.seat], None,
                         {"level": hero.level, "vassals": len(hero.vassals), "eliminated": hero.eliminated})
                for hero in state.heroes]

    def decide(self, state: State, seat: str, command, rng):
        if state is None or state.step == "over":
            raise IllegalCommand("the game is over")
        if seat not in to_act(state):
            raise not_your_turn(seat, to_act(state))
        b = Builder(state, rng)
        step = state.step
        if isinstance(command, m.ChooseHero) and step == "choosing":
            choose_hero(b, seat, command.hero)
        elif isinstance(command, m.UseItem) and step in TURN_STEPS:
            use_item(b, seat, command.item)
        elif isinstance(command, m.MoveTo) and step == "move":
            move(b, seat, command.place)
        elif isinstance(command, (m.Adventure, m.SkipAdventure)) and step == "adventure":
            if isinstance(command, m.Adventure):
                attempt_adventure(b, seat)
            else:
                b.emit(m.AdventureSkipped(seat=seat))
        elif isinstance(command, (m.Heal, m.Buy, m.GainExperience, m.EndTurn)) and step == "experience":
            if isinstance(command, m.Heal):
                heal(b, seat)
            elif isinstance(command, m.Buy):
                buy(b, seat, command.card)
            elif isinstance(command, m.GainExperience):
                gain_experience(b, seat, command.kind)
            else:
                end_turn(b, seat)
        elif isinstance(command, (m.PlaceVassal, m.FinishPlacing)) and step == "placing":
            if isinstance(command, m.PlaceVassal):
                place_vassal(b, seat, command.vassal)
            else:
                finish_placing(b, seat)
        elif isinstance(command, (m.Attack, m.Defend, m.Retreat)) and step == "combat":
            self._combat(b, seat, command)
        else:
            raise IllegalCommand(f"you cannot {type(command).__name__} now: it is the {step} step")
        return b.events

    def _combat(self, b: Builder, seat: str, command) -> None:
        combat = b.state.combat
        action = "defend" if isinstance(command, m.Defend) else "attack"
        if isinstance(command, m.Retreat):
            if not can_retreat(b.state):
                raise IllegalCommand("you can only retreat from an adventure combat, before a round begins")
            return_card(b, combat.enemy)
            b.emit(m.Retreated(seat=seat))
        elif combat.opponent is None:
            if action == "defend" and not can_defend(combat):
                raise IllegalCommand(f"{combat.enemy} does not let you defend in the {combat.phase} phase")
            fight_card(b, action)
        elif combat.declared is None:
            b.emit(m.ActionDeclared(seat=seat, action=action))
        else:
            fight_duel(b, action)
