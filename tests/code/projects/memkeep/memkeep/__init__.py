"""A memory service: search, documents, summaries and batch jobs kept in Redis."""
