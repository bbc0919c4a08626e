"""The command line: click commands, shared options, and the mapping from errors to exit codes."""
