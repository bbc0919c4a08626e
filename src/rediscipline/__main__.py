"""`python -m rediscipline` runs the command line, as the `rediscipline` executable does."""

from rediscipline.cli.entry import main

if __name__ == "__main__":
    main()
