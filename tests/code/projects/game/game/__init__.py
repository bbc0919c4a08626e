"""Game backend services (leaderboards, players, matches) on a Redis Cluster."""
