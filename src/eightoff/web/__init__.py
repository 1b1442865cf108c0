"""The local web table: a thin FastAPI app over the core, the store and the solver.

``create_app(db_path)`` builds the app; ``serve(...)`` (in :mod:`eightoff.web.server`)
runs it under uvicorn. The JSON API is documented in ``API.md`` next to this file.
"""

from __future__ import annotations

from eightoff.web.app import create_app

__all__ = ["create_app"]
