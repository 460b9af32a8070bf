"""The live recording service (``liujia record-server``): game servers open a game, append its
events as they happen and the engine checks each at once; every acknowledged event is durably
in the game's append log, a finished game is sealed into an Arrow log (docs/record-server.md).

``store`` keeps the games (append logs, group commit, recovery, sealing), ``wire`` reads an
event sent over HTTP, ``tokens`` the game servers' bearer tokens, ``app`` the FastAPI app.
"""
