"""The shape of a Cronberg view (GET /games/{id}/view), for the OpenAPI document.

Coordinates are in edge lengths of the triangular grid, x to the right and
y downwards; a triangle's x, y is its centre."""

from __future__ import annotations

from marshmallow import Schema, fields


class PlayerSchema(Schema):
    seat = fields.String(required=True)
    score = fields.Integer(required=True, metadata={"description": "position of the family head on the city wall"})
    supply = fields.Integer(required=True, metadata={"description": "family members in hand"})
    in_city = fields.Integer(required=True, metadata={"description": "family members standing on crossings"})


class TileSchema(Schema):
    id = fields.Integer(required=True)
    corners = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "the 4 corner numbers clockwise from an acute corner: acute, obtuse, acute, obtuse"},
    )


class TriangleSchema(Schema):
    id = fields.String(required=True)
    corners = fields.List(fields.String(), required=True, metadata={"description": "its three crossing ids"})
    x = fields.Float(required=True)
    y = fields.Float(required=True)
    kind = fields.String(required=True, metadata={"enum": ["plain", "park", "musketeer", "coat_of_arms"]})
    wall_sides = fields.List(
        fields.List(fields.String()), required=True, metadata={"description": "sides on the city wall, as crossing pairs"}
    )
    tile = fields.Integer(allow_none=True, required=True, metadata={"description": "the building covering it, or null if vacant"})
    enclosed = fields.Boolean(required=True, metadata={"description": "vacant with a building or the wall on every side"})
    active = fields.Boolean(required=True, metadata={"description": "an enclosed Park, Musketeer or Coat of Arms"})


class CrossingSchema(Schema):
    id = fields.String(required=True)
    x = fields.Float(required=True)
    y = fields.Float(required=True)
    member = fields.String(allow_none=True, required=True, metadata={"description": "seat of the family member here"})
    numbers = fields.List(fields.Integer(), required=True, metadata={"description": "corner numbers of the buildings here"})
    value = fields.Integer(required=True, metadata={"description": "what a member here would score now, Coats of Arms and Parks applied"})
    open = fields.Boolean(required=True, metadata={"description": "a family member may be placed here now"})


class BuildingCornerSchema(Schema):
    crossing = fields.String(required=True)
    number = fields.Integer(required=True)


class BuildingSchema(Schema):
    tile = fields.Integer(required=True)
    triangles = fields.List(fields.String(), required=True)
    turned = fields.Boolean(required=True)
    corners = fields.List(fields.Nested(BuildingCornerSchema), required=True)


class ViewSchema(Schema):
    game = fields.String(required=True)
    viewer = fields.String(allow_none=True, required=True, metadata={"description": "a seat, null for a spectator, * for the referee"})
    seats = fields.List(fields.String(), required=True)
    to_act = fields.List(fields.String(), required=True)
    current = fields.String(allow_none=True, required=True)
    round = fields.Integer(required=True)
    rounds = fields.Integer(required=True)
    starter = fields.String(required=True)
    step = fields.String(required=True, metadata={"enum": ["choose_action", "place_building", "over"]})
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    stack_size = fields.Integer(required=True, metadata={"description": "face-down buildings left"})
    drawn = fields.Nested(TileSchema, allow_none=True, required=True, metadata={"description": "the face-up building to place"})
    triangles = fields.List(fields.Nested(TriangleSchema), required=True)
    crossings = fields.List(fields.Nested(CrossingSchema), required=True)
    buildings = fields.List(fields.Nested(BuildingSchema), required=True)
    tiles = fields.List(fields.Nested(TileSchema), required=True, metadata={"description": "all 28 buildings of the game"})
    passed = fields.List(fields.String(), required=True, metadata={"description": "seats that passed since the last action"})
    outcome = fields.String(allow_none=True, required=True)
    stack = fields.List(
        fields.Integer(), metadata={"description": "referee only: the face-down order, top first"}
    )


# How ``visible`` redacts events for a viewer who may not see everything.
REDACTED = {
    "RoundStarted": {"hidden": ("stack",), "added": {"stack_size": fields.Integer(metadata={"description": "how many rhomboids are stacked"})}},
}
