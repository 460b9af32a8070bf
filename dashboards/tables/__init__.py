"""One table module per game package: how a game's ``view`` dict and its events look in the
dashboard.

The module of a game is ``dashboards.tables.<package>``, the package ``engine.games.package_of``
names for the game id (several variant ids of one package share it); a registered game whose
package has none gets ``generic`` (``dashboards.table.table_module_name``). A table module
defines:

- ``table_html(view, players=None, *, style=True) -> str``: the seats around the centre;
- ``centre_html(view) -> str``: the middle of the table (top play, pending effects, turn);
- ``event_detail(e) -> str``: what an event means beyond its cards, in a few words.

A table module only formats what the view gives (seat count, sides, who is to act, outcomes
and the game's own facts); it never works out game logic itself. Everything taken from the
view or the events is escaped.
"""
