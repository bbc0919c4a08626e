"""`python -m rediscipline` runs the command line."""

from rediscipline.cli.main import main

if __name__ == "__main__":
    main()
