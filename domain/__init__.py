"""Pure game logic: the engine protocol, the registry and the games. Standard library only."""
