"""Background workers: Celery tasks, an RQ queue and dramatiq actors sharing one Redis."""
