"""The life of a slow game around its rules: seats that resign, abort,
vanish and are handed to bots or to replacement players; private lobbies and
rematches; correspondence time banks.

``state`` holds the events and their fold (imported by the session);
``decide`` holds the decisions (importing the session); ``bots`` the bots.
This package imports nothing at load so that the session may import
``state`` without a cycle.
"""
