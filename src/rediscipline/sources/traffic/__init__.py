"""What a live server is sent: an observation window over its own statistics (`rediscipline traffic`).

`snapshot` reads what the server counts (INFO sections, its clock) at each end of the window, `clients` parses
CLIENT LIST, `slowlog` reads the slow log, `window` turns two snapshots into the window's `TrafficView`, and
`source` is the Source that observes one server and yields the view and the commands it saw.
"""
