"""`varroom serve`: the review room, a web page where a VAR team checks the engine's verdicts.

`create_app(db_url, token=None, data_dir=...)` builds the FastAPI application (`app.py`);
`run_server(host, port, db_url, token)` serves it with uvicorn (`server.py`, what the CLI
calls). Around them: the guard (`middleware.py`), one router per resource (`routers/`), the
request and answer models (`schemas.py`), the room's services (`service/`), the facts a
reviewer sets (`facts.py`), the database (`db.py`, `migrations/`) and match audits
(`audit.py`). FastAPI, uvicorn, SQLAlchemy and Alembic are the `serve` extra: import this
package only when serving.
"""

from varroom.serve.app import create_app
from varroom.serve.server import run_server

__all__ = ["create_app", "run_server"]
