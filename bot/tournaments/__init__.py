"""Elimination tournaments at the table: the rules (``rules``), the live tournaments
(``service``) and their stored form (``document``). No discord here: the cog shows them."""
