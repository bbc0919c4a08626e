"""The pytest plugin (entry point `pytest11`): off unless `--rediscipline` is given."""
