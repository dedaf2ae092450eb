"""What each field of the engine's own events means (domain.session's
ENGINE_EVENTS: creation, seats, the lifecycle, the end), for the API's
document: "field" for that name in every engine event, or "Type.field" for
one event's (which wins). A game's own are its ``Game.field_descriptions``."""

ENGINE_FIELD_DESCRIPTIONS: dict[str, str] = {
}
