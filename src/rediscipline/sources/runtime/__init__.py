"""The commands a running application sends through redis-py, read as facts (the runtime guard's source).

`argv` names a command line as `INFO commandstats` does and turns its arguments into bytes as redis-py's
encoder would; `reading` reads one command line into what the rules judge (keys, batch size, options, the TTL
it gives, the sizes it writes); `stream` follows what only a sequence of commands shows (a write and the
EXPIRE that follows it, one TTL repeated over many keys, one call site sending the same command in a loop);
`callsite` finds the application's frame that made the call.
"""
