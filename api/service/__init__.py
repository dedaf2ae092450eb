"""The command service: the one path (load, decide, append, project, schedule)
shared by the HTTP API and the workers. Imports no web framework."""
