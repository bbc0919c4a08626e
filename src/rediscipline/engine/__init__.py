"""The engine: runs enabled rules over facts and is the only place Findings are created. No I/O."""
