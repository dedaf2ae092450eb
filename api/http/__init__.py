"""The HTTP layer: the Flask application, its resources (one blueprint per resource, schemas beside
it) and the middleware every request passes through."""
