"""Elimination tournaments: the rules (``rules``), the coordinator (``service``) and its
state (``state``), and the game mode its tables play (``mode``). No discord here."""
