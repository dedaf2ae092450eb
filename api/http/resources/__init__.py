"""One blueprint per resource, each with its schemas beside it."""
