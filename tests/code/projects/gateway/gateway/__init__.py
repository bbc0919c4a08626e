"""The API gateway (FastAPI, fully asynchronous)."""
