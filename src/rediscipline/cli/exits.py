"""The exit codes of `rediscipline`, in a module that imports nothing (the entry point needs them first).

0 clean; 1 findings at or above `--fail-on`; 2 usage, configuration or input error (one line on stderr);
130 interrupted (Ctrl-C), as a shell reports a process ended by SIGINT.
"""

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2
EXIT_INTERRUPTED = 130
