"""What-if simulators: what a server's own algorithms would do with a keyspace or a trace of accesses.

`eviction` replays an access trace through a server's eviction for a policy and a `maxmemory`, with the memory
a key costs on that server (`memory`), the eviction pool (`pool`) and the LFU counter (`lfu`), drawing from
`rng` (`_replay` is its compiled twin); `expiry` follows the active expire cycle over time (`_expire` is its
compiled twin). The simulators are pure computation over `model` values: no I/O, no printing.
"""
