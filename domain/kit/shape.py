"""View declarations: the shape of what ``view`` returns, declared once, in the
game's package, with a sentence for every field.

The API derives the OpenAPI schema of each game's view from it, and the
conformance suite checks every view a game returns against it, so the
document cannot drift from what the server sends. Objects are closed: a key
the declaration does not name is a problem, as is a missing one (a field some
viewers do not get is declared ``optional``).

    PLAYER = Obj("Player", "one player's score and supply", {
        "seat": Str("the seat"),
        "score": Int("position on the city wall"),
    })
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Shape:
    description: str = ""
    nullable: bool = False

    def json_schema(self, prefix: str, components: dict[str, dict]) -> dict:
        schema = self._schema(prefix, components)
        if self.nullable:
            schema = _nullable(schema)
        return schema

    def problems(self, value: Any, path: str = "$") -> list[str]:
        if value is None:
            return [] if self.nullable else [f"{path} is null, which the declaration does not allow"]
        return self._problems(value, path)

    def _schema(self, prefix: str, components: dict[str, dict]) -> dict:
        raise NotImplementedError

    def _problems(self, value: Any, path: str) -> list[str]:
        raise NotImplementedError

    def _described(self, schema: dict) -> dict:
        return {**schema, "description": self.description} if self.description else schema


def _nullable(schema: dict) -> dict:
    if "$ref" in schema:
        return {"anyOf": [{"$ref": schema["$ref"]}, {"type": "null"}],
                **{k: v for k, v in schema.items() if k != "$ref"}}
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"], **({"enum": [*schema["enum"], None]} if "enum" in schema else {})}
    return {"anyOf": [schema, {"type": "null"}]}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Str(Shape):
    enum: tuple[str, ...] = ()

    def _schema(self, prefix, components):
        return self._described({"type": "string", **({"enum": list(self.enum)} if self.enum else {})})

    def _problems(self, value, path):
        if not isinstance(value, str):
            return [f"{path} should be a string, not {value!r}"]
        if self.enum and value not in self.enum:
            return [f"{path} is {value!r}, not one of {', '.join(self.enum)}"]
        return []


@dataclass(frozen=True)
class Int(Shape):
    minimum: int | None = None

    def _schema(self, prefix, components):
        return self._described({"type": "integer", **({"minimum": self.minimum} if self.minimum is not None else {})})

    def _problems(self, value, path):
        if not _is_int(value):
            return [f"{path} should be a whole number, not {value!r}"]
        if self.minimum is not None and value < self.minimum:
            return [f"{path} is {value}, below its minimum {self.minimum}"]
        return []


@dataclass(frozen=True)
class Num(Shape):
    def _schema(self, prefix, components):
        return self._described({"type": "number"})

    def _problems(self, value, path):
        return [] if _is_int(value) or isinstance(value, float) else [f"{path} should be a number, not {value!r}"]


@dataclass(frozen=True)
class Bool(Shape):
    def _schema(self, prefix, components):
        return self._described({"type": "boolean"})

    def _problems(self, value, path):
        return [] if isinstance(value, bool) else [f"{path} should be true or false, not {value!r}"]


@dataclass(frozen=True)
class List(Shape):
    item: Shape = field(default_factory=Shape)

    def __init__(self, item: Shape, description: str = "", nullable: bool = False):
        object.__setattr__(self, "item", item)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "nullable", nullable)

    def _schema(self, prefix, components):
        return self._described({"type": "array", "items": self.item.json_schema(prefix, components)})

    def _problems(self, value, path):
        if not isinstance(value, (list, tuple)):
            return [f"{path} should be a list, not {value!r}"]
        return [p for n, item in enumerate(value) for p in self.item.problems(item, f"{path}[{n}]")]


@dataclass(frozen=True)
class Map(Shape):
    """An object keyed by names the game chooses (seats, places): every value of one shape."""

    values: Shape = field(default_factory=Shape)
    keys: str = ""

    def __init__(self, values: Shape, description: str = "", keys: str = "", nullable: bool = False):
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "nullable", nullable)

    def _schema(self, prefix, components):
        text = " ".join(part for part in (self.description, f"Keyed by {self.keys}." if self.keys else "") if part)
        schema = {"type": "object", "additionalProperties": self.values.json_schema(prefix, components)}
        return {**schema, "description": text} if text else schema

    def _problems(self, value, path):
        if not isinstance(value, Mapping):
            return [f"{path} should be an object, not {value!r}"]
        return [p for key, item in value.items() for p in self.values.problems(item, f"{path}.{key}")]


@dataclass(frozen=True)
class OneOf(Shape):
    """One of several shapes (a part of a view that differs by phase or viewer)."""

    choices: tuple[Shape, ...] = ()

    def __init__(self, *choices: Shape, description: str = "", nullable: bool = False):
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "nullable", nullable)

    def _schema(self, prefix, components):
        return self._described({"oneOf": [choice.json_schema(prefix, components) for choice in self.choices]})

    def _problems(self, value, path):
        found = [choice.problems(value, path) for choice in self.choices]
        if any(not problems for problems in found):
            return []
        return [f"{path} matches none of its {len(self.choices)} shapes: " + "; ".join(p[0] for p in found if p)]


@dataclass(frozen=True)
class Optional(Shape):
    """A field that some viewers, or some phases, do not get at all."""

    inner: Shape = field(default_factory=Shape)

    def __init__(self, inner: Shape):
        object.__setattr__(self, "inner", inner)
        object.__setattr__(self, "description", inner.description)
        object.__setattr__(self, "nullable", inner.nullable)

    def json_schema(self, prefix, components):
        return self.inner.json_schema(prefix, components)

    def problems(self, value, path="$"):
        return self.inner.problems(value, path)


def optional(shape: Shape) -> Optional:
    return Optional(shape)


@dataclass(frozen=True)
class Described(Shape):
    """An object (or any shape) as one field of another, with what that field
    holds: an ``Obj`` field alone is a bare ``$ref`` in the document, whose
    description is the component's, not the field's."""

    inner: Shape = field(default_factory=Shape)

    def __init__(self, inner: Shape, description: str):
        object.__setattr__(self, "inner", inner)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "nullable", inner.nullable)

    def json_schema(self, prefix, components):
        return {**self.inner.json_schema(prefix, components), "description": self.description}

    def problems(self, value, path="$"):
        return self.inner.problems(value, path)


def described(shape: Shape, description: str) -> Described:
    """``shape`` as a field that holds what ``description`` says (see Described)."""
    return Described(shape, description)


@dataclass(frozen=True)
class Obj(Shape):
    """A closed object, named: it becomes the component ``<Game><name>``."""

    name: str = ""
    fields: Mapping[str, Shape] = field(default_factory=dict)

    def __init__(self, name: str, description: str, fields: Mapping[str, Shape], nullable: bool = False):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "fields", dict(fields))
        object.__setattr__(self, "nullable", nullable)

    def __hash__(self) -> int:
        return hash(self.name)

    def _schema(self, prefix, components):
        component = f"{prefix}{self.name}"
        if component not in components:
            components[component] = {}  # reserved first: a shape may contain itself
            properties = {name: shape.json_schema(prefix, components) for name, shape in self.fields.items()}
            required = [name for name, shape in self.fields.items() if not isinstance(shape, Optional)]
            components[component] = self._described({"type": "object", "properties": properties,
                                                      **({"required": required} if required else {}),
                                                      "additionalProperties": False})
        return {"$ref": f"#/components/schemas/{component}"}

    def _problems(self, value, path):
        if not isinstance(value, Mapping):
            return [f"{path} should be an object ({self.name}), not {value!r}"]
        problems = [f"{path}.{key} is not declared in {self.name}" for key in value if key not in self.fields]
        for name, shape in self.fields.items():
            if name in value:
                problems += shape.problems(value[name], f"{path}.{name}")
            elif not isinstance(shape, Optional):
                problems.append(f"{path}.{name} is missing ({self.name} declares it)")
        return problems

    def undescribed(self, seen: set[str] | None = None) -> list[str]:
        """The fields of this object and those it contains that have no description."""
        seen = set() if seen is None else seen
        if self.name in seen:
            return []
        seen.add(self.name)
        missing = [] if self.description else [self.name]
        for name, shape in self.fields.items():
            if not shape.description:
                missing.append(f"{self.name}.{name}")
            missing += [m for inner in _contained(shape) for m in inner.undescribed(seen)]
        return missing


def _contained(shape: Shape) -> list[Obj]:
    if isinstance(shape, Obj):
        return [shape]
    if isinstance(shape, (Optional, Described)):
        return _contained(shape.inner)
    if isinstance(shape, List):
        return _contained(shape.item)
    if isinstance(shape, Map):
        return _contained(shape.values)
    if isinstance(shape, OneOf):
        return [obj for choice in shape.choices for obj in _contained(choice)]
    return []


def maybe(shape: Shape) -> Shape:
    """``shape``, or null."""
    import dataclasses

    return dataclasses.replace(shape, nullable=True)
