"""One table module per game: how a game's ``view`` dict and its events look in the dashboard.

A table module (registered in ``dashboards.table.TABLES``) defines:

- ``table_html(view, players=None, *, style=True) -> str``: the six seats around the centre;
- ``centre_html(view) -> str``: the middle of the table (top play, pending effects, turn);
- ``event_detail(e) -> str``: what an event means beyond its cards, in a few words.

``generic`` serves every game without a module of its own, from the fields every view has.
Everything taken from the view or the events is escaped.
"""
