"""`varroom serve`: the review room, a web page where a VAR team checks the engine's verdicts.

`create_app(db_url, token=None, data_dir=...)` builds the FastAPI application;
`run_server(host, port, db_url, token)` serves it with uvicorn (what the CLI calls).
FastAPI, uvicorn, SQLAlchemy and Alembic are the `serve` extra: import this package only
when serving.
"""

from varroom.serve.app import create_app, run_server

__all__ = ["create_app", "run_server"]
