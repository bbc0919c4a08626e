"""taskflow: queues, delayed jobs and workers on one Redis."""
