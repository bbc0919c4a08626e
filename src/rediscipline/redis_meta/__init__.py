"""What Redis and redis-py say about commands: one generated table, the cluster key slot, version features.

The table (`command_table_generated.py`) is written by `scripts/gen_command_table.py` from the `COMMAND INFO`
and `COMMAND DOCS` replies of real servers (saved under `scripts/command_table/`) and from the installed
redis-py's method signatures; `commands.py` and `methods.py` answer questions about it, `keyslot.py` computes
the cluster hash slot, `versions.py` says which server versions have a feature and `encodings.py` holds the
sizes at which Redis changes a value's encoding. Every other layer reads
Redis command knowledge from here; this package imports nothing else from rediscipline and nothing
third-party.
"""
