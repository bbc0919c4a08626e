"""Sources that feed the simulators: access traces read from files (`traces`), replayed through a server's
eviction (`eviction_source`)."""
